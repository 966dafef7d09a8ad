/**
 * Operator CLI for API keys, on the same store as the service (`DATABASE_URL`, `STORE_SCHEMA`,
 * `STORE_PGLITE_DIR`; see docs/trust.md). With PGlite the store folder is single-process: stop the
 * service first, or use PostgreSQL.
 *
 *   npm run keys -- create --wallet 0x… [--label "partner x"]   # prints the secret once
 *   npm run keys -- list [--wallet 0x…] [--json]
 *   npm run keys -- revoke key_0123456789abcdef
 *
 * Secrets are printed only by `create`, only once; `list` shows ids and display prefixes.
 */
import { parseArgs } from "node:util";
import { isAddress } from "viem";
import { loadStoreConfig, openStore } from "../store/index";
import { createApiKey, listApiKeys, revokeApiKey } from "../store/keys";

const USAGE = `usage:
  npm run keys -- create --wallet <address> [--label <text>]
  npm run keys -- list [--wallet <address>] [--json]
  npm run keys -- revoke <key_id>`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { wallet: { type: "string" }, label: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
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
  const store = await openStore(loadStoreConfig());
  try {
    switch (command) {
      case "create": {
        if (!values.wallet) {
          console.error("create needs --wallet <address>");
          return 1;
        }
        const { secret, key } = await createApiKey(store, { wallet: values.wallet, label: values.label ?? null, createdVia: "cli" });
        if (values.json) console.log(JSON.stringify({ api_key: secret, id: key.id, wallet: key.wallet, scopes: key.scopes }));
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
          console.log(`${k.id}  ${k.displayPrefix}…  ${k.wallet}  ${state}  created ${new Date(k.createdAtMs).toISOString()} via ${k.createdVia}${k.label ? `  "${k.label}"` : ""}`);
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
