/**
 * `pnpm register`: registers the bot's commands (`COMMANDS`) globally, or in one guild when
 * `DISCORD_GUILD_ID` is set (guild commands appear at once; global ones can take a while).
 */
import { createBot } from './bot.js';
import { loadDotEnv, readEnv } from './env.js';
import { registerCommands } from './register-commands.js';

loadDotEnv();
const env = readEnv();
const bot = createBot({
  publicKey: env.publicKey,
  applicationId: env.applicationId,
  token: env.token,
  ...(env.apiUrl !== undefined ? { apiUrl: env.apiUrl } : {}),
});
try {
  const registered = await registerCommands(
    bot.discord,
    env.applicationId,
    process.env.DISCORD_GUILD_ID,
  );
  console.log(`registered ${registered.map((c) => `/${c.name}`).join(', ')}`);
} finally {
  await bot.close();
}
