import type { Metadata } from "next";
import Link from "next/link";
import { TypeSplitChart } from "@/components/charts/type-split-chart";
import { TableShell } from "@/components/ui/table-shell";
import { formatBytes } from "@/lib/core/format/bytes";
import { ENTITY_TYPES, SPLITS } from "@/lib/core/dataset/release-schema";
import { DOWNLOAD_NAMES } from "@/lib/core/dataset/download-format";
import { getExamplePair } from "@/lib/domain/releases/get-example-pair";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { readDownloadDigests, readReleaseStats } from "@/lib/core/dataset/release-json";
import { CLI_TOOLS, readCliTool, type CliTool, type CliToolFile } from "@/lib/domain/releases/cli-downloads";
import { formatDate } from "@/lib/core/format/dates";
import { formatCount, formatDecimal } from "@/lib/core/format/numbers";
import { formatFeedbackShare } from "@/lib/core/format/disclosure-text";
import { bootstrapIntervalShort, PERTURBATION_EXPLANATION, PUBLIC_INTERVAL_EXPLANATION, RANK_EXPLANATION, roundingExplanation, sliceNExplanation } from "@/lib/core/format/explanations";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { SCORER_COMMAND, scorerVersionLabel } from "@/lib/core/format/versions";
import { SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { DEFAULT_MIN_GROUP_N, PROTECTED_TEST_SIZE, publicGroupPolicy } from "@/lib/core/disclosure/disclose";
import { testApprovalPolicy } from "@/lib/domain/accounts/test-approval";
import { PROTOCOL_VERSION } from "@/lib/core/scoring/protocol-version";
import { getSignedHead } from "@/lib/domain/public-log/read-public-log";
import { getLogSigningKey } from "@/lib/platform/public-log-key";
import type { LogKey, SignedHead } from "@/lib/core/public-log/signed-head";

export const metadata: Metadata = { title: "Dataset" };

export const dynamic = "force-dynamic";

const SCORER_DOWNLOAD_PATH = CLI_TOOLS.scorer.downloadPath;
const CLIENT_FILE_NAME = CLI_TOOLS.client.fileName;

/** Protocol section 11: what a participant runs on the downloads, in a folder holding the scorer. */
const SCORER_RUN = `${SCORER_COMMAND} --release FOLDER --split dev --predictions preds.jsonl`;

function ToolRow({ tool, file, contents, testId }: { tool: CliTool; file: CliToolFile | null; contents: string; testId: string }) {
  return (
    <tr className="border-b border-line align-top" data-testid={testId}>
      <th scope="row">
        {file ? (
          <a href={tool.downloadPath} download>
            {tool.fileName}
          </a>
        ) : (
          tool.fileName
        )}
      </th>
      <td>{contents}</td>
      <td className="text-right whitespace-nowrap">{file ? formatBytes(file.size) : "-"}</td>
      <td>{file ? <code className="break-all text-xs">{file.sha256}</code> : <span role="note">{tool.missingMessage}</span>}</td>
    </tr>
  );
}

const DOWNLOAD_NOTES: Record<(typeof DOWNLOAD_NAMES)[number], string> = {
  "train.jsonl": "training samples with gold: id, qid, name, type, aliases, collection, implicit_text, explicit_text",
  "dev.jsonl": "development samples with gold, same fields as train; score them offline with the CLI",
  "test.jsonl": "test samples without gold: id, collection, implicit_text only",
  "kb.jsonl": "the entity inventory of the closed-world track: qid, name, type, aliases, description, description_wiki",
};

type ActiveRelease = NonNullable<Awaited<ReturnType<typeof findActiveRelease>>>;
type ReleaseStats = ReturnType<typeof readReleaseStats>;
type ExamplePair = Awaited<ReturnType<typeof getExamplePair>>;

/** The dataset page, one named section per heading. */
export default async function DatasetPage() {
  const release = await findActiveRelease();
  if (!release) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">Dataset</h1>
        <p>
          No dataset release has been imported yet. A maintainer imports one with{" "}
          <code>npm run dataset:import -- DIR --activate</code>; see the README.
        </p>
      </div>
    );
  }
  const stats = readReleaseStats(release.stats);
  const example = await getExamplePair(release.id);
  const [scorer, client, head, unified] = await Promise.all([
    readCliTool(CLI_TOOLS.scorer),
    readCliTool(CLI_TOOLS.client),
    getSignedHead(),
    getLeaderboard({ track: "unified", scope: "all" }),
  ]);
  const logKey = getLogSigningKey().described;
  // The ranking slice's n, read from a public row (no row yet: the page says what n is without a number).
  const rankingN = unified?.view.rows.find((row) => row.kind !== "reported")?.n ?? null;

  return (
    <div className="space-y-10">
      <DatasetHeader release={release} stats={stats} />
      <DatasetTask example={example} />
      <DatasetSizes stats={stats} />
      <DatasetDownloads release={release} scorer={scorer} client={client} />
      <DatasetFormats example={example} />
      <DatasetScoringRules scorer={scorer} />
      <DatasetIntegrity release={release} stats={stats} rankingN={rankingN} />
      <DatasetPublicLog head={head} logKey={logKey} />
      <DatasetCitation release={release} />
    </div>
  );
}

/** The public log's key and head: what a reader needs to verify the record (docs/public-log.md). */
function DatasetPublicLog({ head, logKey }: { head: SignedHead; logKey: LogKey }) {
  return (
    <section aria-labelledby="public-log" className="space-y-3" data-testid="public-log-key">
      <h2 id="public-log" className="text-2xl font-semibold">
        Public log
      </h2>
      <p className="max-w-3xl">
        Every change to what readers see (releases, entries published or hidden, baselines, reported results,
        re-scores with the verdicts they changed) is a record of a hash-chained <Link href="/changes">public log</Link>{" "}
        (<a href="/api/public-log">JSON Lines</a>), whose head the operator signs. Check it with{" "}
        <code>node {CLIENT_FILE_NAME} verify-log</code> or any SHA-256 and RFC 8785 implementation.
      </p>
      {/* One column on a phone: beside "Signing key (Ed25519, base64)" the key id left no room at 390 px (the page scrolled sideways). */}
      <dl className="grid max-w-3xl grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-semibold">Signing key (Ed25519, base64)</dt>
        <dd>
          <code className="break-all" data-testid="public-log-public-key">{logKey.publicKey}</code> (key id {logKey.keyId};{" "}
          <a href="/api/public-log/key">as JSON and PEM</a>)
        </dd>
        <dt className="font-semibold">Head</dt>
        <dd>
          record {head.seq}, <code className="break-all">{head.hash}</code> (<a href="/api/public-log/head">signed</a>)
        </dd>
      </dl>
    </section>
  );
}

function DatasetHeader({ release, stats }: { release: ActiveRelease; stats: ReleaseStats }) {
  const totalSamples = SPLITS.reduce((sum, split) => sum + stats.splits[split].samples, 0);
  return (
    <header className="space-y-2">
      <h1 className="text-3xl font-bold">
        Dataset: {release.name} {release.version}
      </h1>
      <p className="max-w-3xl text-muted">{release.description}</p>
      <p className="text-sm text-muted">
        {formatCount(totalSamples)} samples over {formatCount(stats.kbEntities)} knowledge-base
        entities · imported {formatDate(release.importedAt)} ·{" "}
        <Link href={`/dataset/releases/${encodeURIComponent(release.version)}`}>this release&apos;s page</Link> ·{" "}
        <Link href="/dataset/releases">all releases and their changelog</Link>
      </p>
    </header>
  );
}

function DatasetTask({ example }: { example: ExamplePair }) {
  return (
    <section aria-labelledby="task" className="space-y-3">
      <h2 id="task" className="text-2xl font-semibold">
        The task
      </h2>
      <p className="max-w-3xl">
        Each sample is a first-person reminiscence from which one entity has been elided: its name and every alias
        are removed, while the cues that identify it (dates, places, roles, related events) are kept. Systems name
        the entity (open-world track) or rank it among the knowledge-base entities (closed-world track). Splits are
        entity-level: no entity appears in more than one split.
      </p>
      {example && (
        <div className="grid gap-4 md:grid-cols-2">
          <figure className="rounded border border-line bg-white p-4">
            <figcaption className="mb-2 font-semibold">Entity-elided narrative (what systems see)</figcaption>
            <blockquote className="italic">{example.implicitText}</blockquote>
          </figure>
          <figure className="rounded border border-line bg-white p-4">
            <figcaption className="mb-2 font-semibold">Entity-grounded narrative</figcaption>
            <blockquote className="italic">{example.explicitText}</blockquote>
            <p className="mt-3 text-sm">
              Gold: <strong>{example.entity.name}</strong> ({example.entity.qid}) · {example.entity.type} ·{" "}
              {example.collection} · training sample {example.sampleId}
            </p>
          </figure>
        </div>
      )}
    </section>
  );
}

// eslint-disable-next-line max-lines-per-function -- one table of the release's sizes per split and type; split, it reads worse
function DatasetSizes({ stats }: { stats: ReleaseStats }) {
  const typeRows = ENTITY_TYPES.map((type) => ({ type, ...stats.byType[type].samples }));
  const collections = Object.entries(stats.byCollection).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-labelledby="sizes" className="space-y-4">
      <h2 id="sizes" className="text-2xl font-semibold">
        Sizes
      </h2>
      <table className="min-w-full bg-white text-sm">
        <caption className="mb-1 text-left text-muted">Samples and entities per split</caption>
        <thead className="border-b border-line">
          <tr>
            <th scope="col">Split</th>
            <th scope="col" className="text-right">Samples</th>
            <th scope="col" className="text-right">Entities</th>
          </tr>
        </thead>
        <tbody>
          {SPLITS.map((split) => (
            <tr key={split} className="border-b border-line">
              <th scope="row">{split}</th>
              <td className="text-right">{formatCount(stats.splits[split].samples)}</td>
              <td className="text-right">{formatCount(stats.splits[split].entities)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <TableShell
        caption="Samples per entity type and split"
        head={
          <>
            <th scope="col">Entity type</th>
            {SPLITS.map((split) => (
              <th key={split} scope="col" className="text-right">
                {split}
              </th>
            ))}
            <th scope="col" className="text-right">KB entities</th>
          </>
        }
      >
        {ENTITY_TYPES.map((type) => (
          <tr key={type} className="border-b border-line">
            <th scope="row">{type}</th>
            {SPLITS.map((split) => (
              <td key={split} className="text-right">
                {formatCount(stats.byType[type].samples[split])}
              </td>
            ))}
            <td className="text-right">{formatCount(stats.byType[type].kbEntities)}</td>
          </tr>
        ))}
      </TableShell>
      <TypeSplitChart rows={typeRows} title="Samples per entity type, stacked by split" />

      <TableShell
        caption="Samples per collection and split"
        head={
          <>
            <th scope="col">Collection</th>
            {SPLITS.map((split) => (
              <th key={split} scope="col" className="text-right">
                {split}
              </th>
            ))}
          </>
        }
      >
        {collections.map(([collection, counts]) => (
          <tr key={collection} className="border-b border-line">
            <th scope="row">{collection}</th>
            {SPLITS.map((split) => (
              <td key={split} className="text-right">
                {formatCount(counts[split])}
              </td>
            ))}
          </tr>
        ))}
      </TableShell>
    </section>
  );
}

const FILE_HEAD = (
  <>
    <th scope="col">File</th>
    <th scope="col">Contents</th>
    <th scope="col" className="text-right">Size</th>
    <th scope="col">SHA-256</th>
  </>
);

function DatasetDownloads({ release, scorer, client }: { release: ActiveRelease; scorer: CliToolFile | null; client: CliToolFile | null }) {
  const downloads = readDownloadDigests(release.downloads);
  return (
    <section aria-labelledby="downloads" className="space-y-3">
      <h2 id="downloads" className="text-2xl font-semibold">
        Downloads
      </h2>
      <p>JSON Lines, UTF-8, one object per line, each line ending in a newline; sent gzip-compressed when your client accepts it.</p>
      <TableShell caption="Files and their SHA-256 checksums" head={FILE_HEAD}>
        {DOWNLOAD_NAMES.map((name) => (
          <tr key={name} className="border-b border-line align-top">
            <th scope="row">
              <a href={`/dataset/download/${name}`} download>
                {name}
              </a>
            </th>
            <td>{DOWNLOAD_NOTES[name]}</td>
            <td className="text-right whitespace-nowrap">{formatBytes(downloads[name]?.bytes ?? 0)}</td>
            <td>
              <code className="break-all text-xs">{downloads[name]?.sha256}</code>
            </td>
          </tr>
        ))}
      </TableShell>
      <TableShell caption="Command-line tools and their SHA-256 checksums" head={FILE_HEAD}>
        <ToolRow
          tool={CLI_TOOLS.scorer}
          file={scorer}
          testId="scorer-download"
          contents={`the offline scorer, ${scorerVersionLabel(SCORER_VERSION)}: one self-contained file that needs only Node.js 20 or later, no npm install. It prints its version with --version; the site labels scores with it as "Scorer ${SCORER_VERSION}"`}
        />
        <ToolRow
          tool={CLI_TOOLS.client}
          file={client}
          testId="client-download"
          contents="the command-line client: log in with an API token, submit a file and wait for its scores, status, list, quota, download; Node.js 20 or later"
        />
      </TableShell>
      <p className="text-sm" id="offline-scorer">
        To score dev predictions offline exactly as the server does, put <code>dev.jsonl</code> and{" "}
        <code>kb.jsonl</code> in a folder (the names the site gives them, such as{" "}
        <code>
          {release.name}-{release.version}-dev.jsonl
        </code>
        , work too) and run the {scorer ? <a href={SCORER_DOWNLOAD_PATH} download>downloaded scorer</a> : "downloadable scorer"} with
        plain Node: <code>{SCORER_RUN}</code>. In the platform&apos;s repository the same scorer is{" "}
        <code>npm run --silent score -- --release FOLDER --split dev --predictions preds.jsonl</code>.
      </p>
      <p className="text-sm" id="client">
        To submit from a terminal, create a token on <a href="/account/tokens">Account → API tokens</a>, then run the{" "}
        {client ? <a href={CLI_TOOLS.client.downloadPath} download>client</a> : "client"}:{" "}
        <code>node {CLIENT_FILE_NAME} login --url {"<site>"}</code> (paste the token), then{" "}
        <code>node {CLIENT_FILE_NAME} submit preds.jsonl --wait</code>. It speaks the documented{" "}
        <a href="/docs/api">API</a> (OpenAPI 3.1 at <code>/api/openapi.json</code>).
      </p>
      <p className="text-sm">
        Check a file with <code>sha256sum</code>; the command-line download{" "}
        <code>curl -O -J {"<site>"}/dataset/download/dev.jsonl</code> keeps the release in the file name.
      </p>
    </section>
  );
}

function DatasetFormats({ example }: { example: ExamplePair }) {
  return (
    <section aria-labelledby="formats" className="space-y-3">
      <h2 id="formats" className="text-2xl font-semibold">
        Prediction formats
      </h2>
      <p>
        One JSON object per line, every sample of the split exactly once. Blank lines and a leading byte-order mark
        are ignored; other fields are ignored.
      </p>
      <pre className="overflow-x-auto rounded bg-slate-100 p-3 text-sm">{`open-world:   {"id": "${example?.sampleId ?? "<id from dev.jsonl>"}", "prediction": "Attack on Pearl Harbor"}
closed-world: {"id": "${example?.sampleId ?? "<id from dev.jsonl>"}", "ranking": ["Q52418", "Q3046", "Q362"]}`}</pre>
      <ul className="list-disc space-y-1 pl-6">
        <li>
          <code>prediction</code>: a string of at most 512 characters (an empty string is scored wrong).
        </li>
        <li>
          <code>ranking</code>: 1 to 100 distinct QIDs from <code>kb.jsonl</code>, best first.
        </li>
        <li>
          A file with any invalid line is rejected as a whole, with the line number and the problem of each (up to 50
          listed).
        </li>
      </ul>
    </section>
  );
}

function DatasetScoringRules({ scorer }: { scorer: CliToolFile | null }) {
  return (
    <section aria-labelledby="scoring" className="space-y-3">
      <h2 id="scoring" className="text-2xl font-semibold">
        Scoring rules
      </h2>
      <p>
        Text is normalised with Unicode NFKC, lower-cased, trimmed and its white space collapsed. Tokens are runs of
        letters, digits and combining marks.
      </p>
      <ol className="list-decimal space-y-1 pl-6">
        <li>
          <strong>Exact</strong>: the prediction equals the gold entity&apos;s name.
        </li>
        <li>
          <strong>Alias</strong>: it equals one of the entity&apos;s aliases (the primary open-world metric counts
          tiers 1 and 2).
        </li>
        <li>
          <strong>Containment</strong>: a non-empty prediction is a substring of the name, or the name of it.
        </li>
        <li>
          <strong>Jaccard</strong>: token Jaccard similarity with the name of at least 0.5.
        </li>
      </ol>
      <p>
        The tiers are cumulative. Closed-world rankings are scored by Hit@1, Hit@3, Hit@5, Hit@10, MRR (0 when the
        gold is not ranked) and alias-aware Hit@1 (the top entity counts when its name equals the gold&apos;s name or
        an alias); the primary metric is Hit@1. Every metric comes with a 95% interval, per entity type and collection too: on dev
        and offline the {bootstrapIntervalShort()}; on the leaderboard&apos;s test numbers one made from the shown value and n (
        <a href="#integrity">below</a>). Entries are ranked by paired tests (McNemar&apos;s exact test,
        Holm-adjusted among the entries of a view), with one verdict per pair across the site. The full
        contract is the {`IRC-Bench evaluation protocol v${PROTOCOL_VERSION}`} (<code>docs/scoring.md</code> in the platform&apos;s
        repository), and the{" "}
        {scorer ? (
          <a href={SCORER_DOWNLOAD_PATH} download>
            command-line scorer
          </a>
        ) : (
          <a href="#offline-scorer">command-line scorer</a>
        )}{" "}
        applies it offline: <code>{SCORER_RUN}</code>.
      </p>
    </section>
  );
}

function DatasetIntegrity({ release, stats, rankingN }: { release: ActiveRelease; stats: ReleaseStats; rankingN: number | null }) {
  const groupPolicy = publicGroupPolicy({ minGroupN: release.minGroupN });
  const approval = testApprovalPolicy(release);
  return (
    <section aria-labelledby="integrity" id="integrity" className="space-y-3">
      <h2 id="integrity-heading" className="text-2xl font-semibold">
        What the platform reveals about the test split
      </h2>
      <p className="max-w-3xl" data-testid="reveals-summary">
        The test split is cut into two secret slices: before publication you see rounded overall numbers of the{" "}
        <strong>feedback slice</strong> only ({formatFeedbackShare(release.feedbackFraction)} of the test samples, which never decide the leaderboard), and everything public
        (ranks, marks, per-type tables, exports) comes from the <strong>ranking slice</strong>, which nobody can query before a maintainer
        publishes an entry. So knowing the outcome of every answer in a file but one reads nothing of the leaderboard&apos;s samples, and
        publication requests too close to an earlier entry or a baseline are refused.
      </p>
      {stats.splits.test.samples < PROTECTED_TEST_SIZE && (
        <p role="note" data-testid="illustrative-gold" className="max-w-3xl rounded border border-amber-300 bg-amber-50 p-3 text-amber-900">
          This release&apos;s test split has only {formatCount(stats.splits.test.samples)} samples: its test gold is{" "}
          <strong>illustrative, not protected</strong>. On so few samples one answer moves a rate by{" "}
          {formatDecimal(100 / Math.max(1, stats.splits.test.samples), 1)} points, more than any rounding or slicing hides
          {release.minGroupN < DEFAULT_MIN_GROUP_N
            ? `, so it sets a small minimum group size (${release.minGroupN} samples instead of ${DEFAULT_MIN_GROUP_N}) and its per-type views show numbers.`
            : "."}
        </p>
      )}
      <ul className="max-w-3xl list-disc space-y-1 pl-6">
        <li>
          {roundingExplanation(groupPolicy)} Comparisons are verdicts with p as a bucket, never counts.
        </li>
        <li data-testid="interval-explanation">{PUBLIC_INTERVAL_EXPLANATION}</li>
        <li data-testid="explain-n">{sliceNExplanation({ rankingN, testSamples: stats.splits.test.samples })}</li>
        <li data-testid="explain-perturbation">{PERTURBATION_EXPLANATION}</li>
        <li data-testid="explain-rank">{RANK_EXPLANATION}</li>
        <li>
          Scores name the gold they were computed against by a gold version id, not by a checksum of the gold.
        </li>
        <li data-testid="test-quota-identity">
          The test quota binds your account, and, until a maintainer approves your account, your network address: every unapproved
          account that uploads from one address (an IPv6 /64) shares one budget of the same size; approved accounts behind one address (a
          lab) each keep their own. Every charge and refund is on your account page.
        </li>
        <li data-testid="test-approval">
          {approval.isRequired
            ? `Test submissions on this release need an account a maintainer has approved: its test split has ${formatCount(approval.testSamples)} samples, and a per-account budget means little when one person can open many accounts. Dev submissions are open to every account.`
            : approval.isLargeRelease
              ? `The operator has turned approval off for this release (TEST_REQUIRES_APPROVAL=0): any account may submit test files, although its test split has ${formatCount(approval.testSamples)} samples and the protocol asks for approved accounts from 1,000 on.`
              : `Test submissions need no approval on this release: its test split has ${formatCount(approval.testSamples)} samples, fewer than the 1,000 from which accounts must be approved.`}
        </li>
      </ul>
      <p className="text-sm text-muted">The full rules, and the attack each one stops, are in docs/integrity.md in the platform&apos;s repository.</p>
    </section>
  );
}

function DatasetCitation({ release }: { release: ActiveRelease }) {
  return (
    <section aria-labelledby="cite" className="space-y-3">
      <h2 id="cite" className="text-2xl font-semibold">
        How to cite
      </h2>
      <pre className="overflow-x-auto rounded bg-slate-100 p-3 text-sm">{`@misc{ircbench,
title  = {IRC-Bench: Recognizing Entities from Contextual Cues in First-Person Reminiscences},
note   = {Benchmark and leaderboard, release ${release.name} ${release.version}},
}`}</pre>
    </section>
  );
}
