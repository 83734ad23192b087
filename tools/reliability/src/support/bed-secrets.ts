/** The signing secret and bot token of every bed: long and unique, so a scan cannot miss them. */
export const BED_SECRET = 'reliability-signing-secret-5f3a9c1e7b2d';
export const BED_TOKEN = 'xoxb-reliability-bot-token-8e4c2a6f0d1b';
