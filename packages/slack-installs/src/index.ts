export { type EncryptionKey, RecordCipher } from './crypto/record-cipher.js';
export {
  InstallationDecryptError,
  InstallationRefreshError,
  InstallationStoreError,
  type InstallFailureReason,
  InstallFlowError,
  SlackInstallsError,
} from './errors.js';
export {
  type InstallAnswer,
  type InstallHandler,
  type InstallRequest,
  installRequestOfNode,
  installRequestOfWeb,
  nodeInstallListener,
  webInstallHandler,
  webResponseOf,
  writeNodeAnswer,
} from './http/install-http.js';
export type { SlackInstallNoticeName } from './notices.js';
export {
  DEFAULT_SLACK_INSTALLER_OPTIONS,
  type SlackInstallerOptions,
} from './oauth/installer-options.js';
export {
  defaultFailurePage,
  defaultInstallPage,
  defaultSuccessPage,
  type InstalledSummary,
  type SlackInstallPages,
} from './oauth/pages.js';
export { createSlackInstaller, SlackInstaller } from './oauth/slack-installer.js';
export {
  type InstallationLookup,
  type InstallationStore,
  installationKeyOf,
  type SlackOAuthInstallation,
  toOAuthInstallationStore,
} from './store/installation-store.js';
export { createMemoryInstallationStore, MemoryInstallationStore } from './store/memory-store.js';
export {
  createRedisInstallationStore,
  DEFAULT_REDIS_INSTALLATION_STORE_OPTIONS,
  RedisInstallationStore,
  type RedisInstallationStoreOptions,
} from './store/redis-store.js';
export { createInstallationTokens, InstallationTokens } from './tokens/installation-tokens.js';
export {
  DEFAULT_INSTALLATION_TOKENS_OPTIONS,
  type InstallationTokensOptions,
} from './tokens/token-options.js';
