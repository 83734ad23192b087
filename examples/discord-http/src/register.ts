/**
 * `pnpm register`: registers the bot's commands (`COMMANDS`) globally, or in one guild when
 * `DISCORD_GUILD_ID` is set (guild commands appear at once; global ones can take a while), and
 * prints the install link. `pnpm register --dry-run` prints what would change and writes nothing.
 */
import { createBot } from './bot.js';
import { loadDotEnv, readEnv } from './env.js';
import { installLink, registerCommands } from './register-commands.js';

loadDotEnv();
const env = readEnv();
const dryRun = process.argv.includes('--dry-run');
const bot = createBot({
  publicKey: env.publicKey,
  applicationId: env.applicationId,
  token: env.token,
  ...(env.apiUrl !== undefined ? { apiUrl: env.apiUrl } : {}),
});
try {
  const guildId = process.env.DISCORD_GUILD_ID;
  const result = await registerCommands(bot.discord, env.applicationId, {
    ...(guildId ? { guildId } : {}),
    dryRun,
  });
  const list = (keys: readonly string[]) => (keys.length === 0 ? '-' : keys.join(', '));
  console.log(
    `${dryRun ? 'would change' : result.written ? 'registered' : 'unchanged'}: added ${list(result.added)}; changed ${list(result.changed)}; removed ${list(result.removed)}; unchanged ${list(result.unchanged)}`,
  );
  console.log(`install link: ${installLink(env.applicationId)}`);
} finally {
  await bot.close();
}
