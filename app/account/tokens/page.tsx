import type { Metadata } from "next";
import Link from "next/link";
import { CreateTokenForm } from "@/components/auth/create-token-form";
import { RevokeTokenForm } from "@/components/auth/revoke-token-form";
import { requirePageUser } from "@/lib/domain/accounts/page-guards";
import type { ApiTokenView } from "@/lib/core/accounts/api-token-view";
import { listApiTokens } from "@/lib/domain/accounts/list-api-tokens";
import { formatDateTime } from "@/lib/core/format/dates";
import { createTokenAction, revokeTokenAction } from "@/app/account/tokens/actions";
import { HIDDEN_CAPTION_CLASS, TableShell } from "@/components/ui/table-shell";

export const metadata: Metadata = { title: "API tokens" };

function formatDate(value: string | null, empty: string): string {
  return value ? formatDateTime(value) : empty;
}

const STATUS_LABELS: Record<ApiTokenView["status"], string> = { active: "Active", expired: "Expired", revoked: "Revoked" };

type ApiTokenList = Awaited<ReturnType<typeof listApiTokens>>;

export default async function TokensPage() {
  const actor = await requirePageUser("/account/tokens");
  const tokens = await listApiTokens({ actor });
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm">
          <Link href="/account">Your account</Link> / API tokens
        </p>
        <h1 className="text-3xl font-bold">API tokens</h1>
        <p className="max-w-3xl">
          An API token lets a script act as you on the JSON API, with the rights of a participant. Send it in a header:
        </p>
        <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-sm text-slate-100">
          {`curl -H "Authorization: Bearer ircb_…" https://<this site>/api/me`}
        </pre>
        <p className="max-w-3xl">
          Or paste it into the <a href="/dataset#client">command-line client</a>: <code>node irc-bench-client.mjs login</code>, then{" "}
          <code>node irc-bench-client.mjs submit preds.jsonl --wait</code>. Every route is described on the{" "}
          <a href="/docs/api">API page</a>.
        </p>
        <p className="max-w-3xl text-sm text-muted">
          Tokens are stored only as a SHA-256 hash: the full token is shown once, when it is created. Revoke a token as soon as
          you no longer need it or it may have leaked.
        </p>
      </div>

      <section aria-labelledby="create-heading" className="space-y-3">
        <h2 id="create-heading" className="text-xl font-semibold">
          Create a token
        </h2>
        <CreateTokenForm action={createTokenAction} />
      </section>

      <TokenList tokens={tokens} />
    </div>
  );
}

function TokenList({ tokens }: { tokens: ApiTokenList }) {
  return (
    <section aria-labelledby="list-heading" className="space-y-3">
      <h2 id="list-heading" className="text-xl font-semibold">
        Your tokens
      </h2>
      {tokens.length === 0 ? (
        <p>You have no API tokens yet.</p>
      ) : (
        <TableShell
          caption="Your API tokens"
          tableClassName="min-w-full border border-line bg-white text-sm"
          captionClassName={HIDDEN_CAPTION_CLASS}
          headClassName="bg-slate-50"
          head={
            <>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </>
          }
        >
          {tokens.map((token) => (
            <tr key={token.id} className="border-t border-line">
              <th scope="row" className="font-medium">
                {token.name}
              </th>
              <td className="font-mono">{token.prefix}…</td>
              <td>{formatDate(token.createdAt, "")}</td>
              <td>{formatDate(token.lastUsedAt, "Never")}</td>
              <td>{formatDate(token.expiresAt, "Never")}</td>
              <td>
                {STATUS_LABELS[token.status]}
                {token.revokedAt && <span className="block text-muted">{formatDate(token.revokedAt, "")}</span>}
              </td>
              <td>
                {token.status !== "revoked" && <RevokeTokenForm action={revokeTokenAction} tokenId={token.id} tokenName={token.name} />}
              </td>
            </tr>
          ))}
        </TableShell>
      )}
    </section>
  );
}
