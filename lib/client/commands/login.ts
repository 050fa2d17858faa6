import { meSchema } from "@/lib/core/api-schemas/account";
import { isApiTokenFormat } from "@/lib/core/accounts/token-format";
import { ApiClient, ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { ClientError } from "@/lib/client/client-error";
import { readConfig, savedServerKeys, writeConfig } from "@/lib/client/config-file";
import { writeJson, type CommandContext } from "./context";

type LoginOptions = {
  baseUrl: string;
  configFile: string;
  /** The pasted token (read from stdin by the entry point). */
  token: string;
  userAgent: string;
};

/**
 * `login`: checks the pasted token against GET /api/me and stores it for this
 * server in the config file (mode 600). A token the server refuses is not stored.
 */
export async function runLogin(context: CommandContext, options: LoginOptions): Promise<0> {
  const token = options.token.trim();
  if (token === "") throw new ClientError(2, ["No token was given. Paste the token the account page showed you (it starts with ircb_)."]);
  if (!isApiTokenFormat(token)) {
    throw new ClientError(2, [`That is not an IRC-Bench API token: tokens are "ircb_" and 43 more characters. Create one on ${options.baseUrl}/account/tokens.`]);
  }
  const api = new ApiClient({ baseUrl: options.baseUrl, token, userAgent: options.userAgent });
  const me = await api.json("/api/me", meSchema).catch((error: unknown) => {
    throw error instanceof ApiRefusal ? explainRefusal(error, options.baseUrl, context.now()) : error;
  });
  const config = await readConfig(options.configFile);
  config.servers[options.baseUrl] = { token, savedAt: context.now().toISOString() };
  config.defaultUrl = options.baseUrl;
  await writeConfig(options.configFile, config);
  if (context.isJson) writeJson(context, { url: options.baseUrl, user: me, configFile: options.configFile });
  else {
    context.stdout.write(
      `Logged in to ${options.baseUrl} as ${me.displayName} (${me.role.toLowerCase()}).\n` + `The token is saved in ${options.configFile} (readable by you only, mode 600).\n`,
    );
  }
  return 0;
}

/** `logout`: forgets this server's token. */
export async function runLogout(context: CommandContext, options: { baseUrl: string; configFile: string }): Promise<0> {
  const config = await readConfig(options.configFile);
  // The token other commands would use here, saved under this URL or another loopback name of it.
  const keys = savedServerKeys(config, options.baseUrl);
  const hadToken = keys.length > 0;
  for (const key of keys) delete config.servers[key];
  if (config.defaultUrl === options.baseUrl || (config.defaultUrl !== undefined && keys.includes(config.defaultUrl))) delete config.defaultUrl;
  await writeConfig(options.configFile, config);
  context.stdout.write(hadToken ? `Forgot the token for ${options.baseUrl}. Revoke it on ${options.baseUrl}/account/tokens if it may have leaked.\n` : `No token was saved for ${options.baseUrl}.\n`);
  return 0;
}
