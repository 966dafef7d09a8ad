/**
 * Operator CLI for API keys, on the same store as the service (`DATABASE_URL`, `STORE_SCHEMA`,
 * `STORE_PGLITE_DIR`; see docs/trust.md). With PGlite the store folder is single-process: stop the
 * service first, or use PostgreSQL.
 *
 *   npm run keys -- create --wallet 0x… [--label "partner x"]   # prints the secret once
 *   npm run keys -- list [--wallet 0x…] [--json]
 *   npm run keys -- revoke key_0123456789abcdef
 *
 * On a devnet (`npm start` running in this checkout, found through its lock file
 * `<DEVNET_DIR or --data-dir>/instance.json`, and no `DATABASE_URL`): the devnet's store is the
 * PGlite folder its service holds, so `create` goes through the running service with the wallet's
 * signature (the session surface's key flow), which works for anvil's dev accounts: the CLI
 * signs with their well-known keys. `list`/`revoke` need the store itself and say so. Every
 * command first prints which store it uses. `.env` is loaded first (the real environment wins).
 *
 * Secrets are printed only by `create`, only once; `list` shows ids and display prefixes. `create`
 * honours the cap on a wallet's active keys (`API_KEYS_PER_WALLET`, default 10; the same cap as
 * the browser flow): at the cap it prints why and exits 1, creating nothing.
 */
import "../config/dotenv";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { isAddress } from "viem";
import { loadEnv } from "../config/env";
import { DEV_ACCOUNT_COUNT, devAccount } from "../devnet/clients";
import { readDevnetInstance } from "../devnet/instanceLock";
import { createKeyWithWallet, devAccountFor } from "../devnet/walletKey";
import { loadStoreConfig, openStore } from "../store/index";
import { ActiveKeyLimitError, createApiKey, listApiKeys, revokeApiKey } from "../store/keys";

const USAGE = `usage:
  npm run keys -- create --wallet <address> [--label <text>] [--json] [--data-dir <devnet folder>]
  npm run keys -- list [--wallet <address>] [--json]
  npm run keys -- revoke <key_id>`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      wallet: { type: "string" },
      label: { type: "string" },
      json: { type: "boolean" },
      "data-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (values.wallet !== undefined && !isAddress(values.wallet, { strict: false })) {
    console.error(`--wallet must be a 20-byte hex address, got "${values.wallet}"`);
    return 1;
  }
  const env = loadEnv();
  // A devnet running in this checkout: its store is held by its service (see the header).
  const devnetDir = resolve(values["data-dir"] ?? env.DEVNET_DIR);
  const devnet = env.DATABASE_URL || env.LAUNCH_FACTORY_ADDRESS ? undefined : readDevnetInstance(devnetDir);
  if (devnet) return onDevnet(command, devnet, values);
  const storeConfig = loadStoreConfig();
  const where =
    storeConfig.kind === "postgres"
      ? `PostgreSQL schema ${storeConfig.schema}`
      : `PGlite folder ${resolve(storeConfig.dir)}`;
  const log = values.json ? console.error : console.log;
  log(`store: ${where}`);
  if (storeConfig.kind === "pglite" && !env.LAUNCH_FACTORY_ADDRESS && !resolve(storeConfig.dir).startsWith(devnetDir)) {
    log(`  (no devnet is running in ${devnetDir}: a devnet never reads this store and clears its own at each start;`);
    log("   to create keys for a devnet, run this while `npm start` runs)");
  }
  const store = await openStore(storeConfig);
  try {
    switch (command) {
      case "create": {
        if (!values.wallet) {
          console.error("create needs --wallet <address>");
          return 1;
        }
        let created: Awaited<ReturnType<typeof createApiKey>>;
        try {
          created = await createApiKey(store, {
            wallet: values.wallet,
            label: values.label ?? null,
            createdVia: "cli",
            maxActiveKeys: loadEnv().API_KEYS_PER_WALLET,
          });
        } catch (err) {
          if (!(err instanceof ActiveKeyLimitError)) throw err;
          console.error(
            `${err.message} (API_KEYS_PER_WALLET=${err.limit}); see \`npm run keys -- list --wallet ${err.wallet}\``,
          );
          return 1;
        }
        const { secret, key } = created;
        if (values.json)
          console.log(JSON.stringify({ api_key: secret, id: key.id, wallet: key.wallet, scopes: key.scopes }));
        else {
          console.log(`created ${key.id} for ${key.wallet} (scopes: ${key.scopes.join(", ")})`);
          console.log(`secret (shown once, store it now): ${secret}`);
        }
        return 0;
      }
      case "list": {
        const keys = await listApiKeys(store, values.wallet);
        if (values.json) {
          console.log(JSON.stringify(keys));
          return 0;
        }
        if (!keys.length) console.log("no keys");
        for (const k of keys) {
          const state = k.revokedAtMs ? `revoked ${new Date(k.revokedAtMs).toISOString()}` : "active";
          console.log(
            `${k.id}  ${k.displayPrefix}…  ${k.wallet}  ${state}  created ${new Date(k.createdAtMs).toISOString()} via ${k.createdVia}${k.label ? `  "${k.label}"` : ""}`,
          );
        }
        return 0;
      }
      case "revoke": {
        const id = rest[0];
        if (!id) {
          console.error("revoke needs a key id (key_…); see `npm run keys -- list`");
          return 1;
        }
        if (!(await revokeApiKey(store, id))) {
          console.error(`no key ${id}`);
          return 1;
        }
        console.log(`revoked ${id}; it is refused from the next request on`);
        return 0;
      }
      default:
        console.error(`unknown command "${command}"\n${USAGE}`);
        return 1;
    }
  } finally {
    await store.close();
  }
}

/**
 * The commands against a running devnet: `create` through its service, signed by a dev account.
 * @returns the exit code
 */
async function onDevnet(
  command: string,
  devnet: NonNullable<ReturnType<typeof readDevnetInstance>>,
  values: { wallet?: string; label?: string; json?: boolean },
): Promise<number> {
  const log = values.json ? console.error : console.log;
  log(
    `store: the running devnet's (${devnet.storeDir ?? `${devnet.dir}/store`}, held by its service ${devnet.serviceUrl ?? "(starting)"}, npm start pid ${devnet.pid})`,
  );
  if (command !== "create") {
    console.error(
      `${command} needs the store itself, which the devnet's service holds (PGlite is single-process). ` +
        "Stop the devnet first (its store is cleared at the next start), or use PostgreSQL (DATABASE_URL).",
    );
    return 1;
  }
  if (!devnet.serviceUrl) {
    console.error('the devnet is still starting: run this again once `npm start` printed "ready"');
    return 1;
  }
  if (!values.wallet) {
    console.error("create needs --wallet <address>");
    return 1;
  }
  const account = devAccountFor(values.wallet);
  if (!account) {
    const accounts = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => `  ${i}: ${devAccount(i).address}`).join("\n");
    console.error(
      `on a devnet keys are created through the service with the wallet's signature, and this CLI can sign only for anvil's dev accounts:\n${accounts}\n` +
        `for another wallet, sign in the browser (${devnet.serviceUrl}/launch, "connect") or stop the devnet and use a store of your own.`,
    );
    return 1;
  }
  const created = await createKeyWithWallet(devnet.serviceUrl, account, values.label ?? "cli (devnet)");
  if (values.json)
    console.log(
      JSON.stringify({ api_key: created.apiKey, id: created.id, wallet: created.wallet, scopes: created.scopes }),
    );
  else {
    console.log(
      `created ${created.id} for ${created.wallet} (scopes: ${created.scopes.join(", ")}) on the devnet at ${devnet.serviceUrl}`,
    );
    console.log(`secret (shown once, store it now): ${created.apiKey}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
