/**
 * The two versions a participant meets, each under one name everywhere (issue 35): the **scorer**
 * version is that of the scoring rules (protocol §10): the downloaded `irc-bench-score.mjs` prints it
 * (`--version`), every report carries it (`scorer_version`), and the site labels scores "Scorer X"
 * with it. The **platform scoring** version is that of what the server stores beside a report
 * (since protocol v1.2 the test slices' reports): it decides whether a stored score is stale and
 * is never the scorer's. The site shows it as "platform scoring Y", never as "Scorer Y".
 */

/** How a participant runs the downloaded scorer. */
export const SCORER_COMMAND = "node irc-bench-score.mjs";

/** What the scorer prints for --version and heads its help with: "irc-bench-score 1.1.0". */
export function scorerVersionLabel(version: string): string {
  return `irc-bench-score ${version}`;
}

/** A score's two versions in one line: "Scorer 1.1.0 (irc-bench-score) · platform scoring 1.2.0". */
export function formatScoreVersions(versions: { scorer: string; platform: string }): string {
  return `Scorer ${versions.scorer} (irc-bench-score) · platform scoring ${versions.platform}`;
}

/** What the two versions are, for a page's note or the API docs. */
export const VERSIONS_EXPLANATION =
  "Scorer: the version of the scoring rules, the one the downloaded scorer prints (node irc-bench-score.mjs --version) and every report carries as scorer_version; " +
  "its numbers are the server's to the last digit. Platform scoring: the version of what the server stores beside a report (the test slices' reports); " +
  "a new platform scoring version re-scores stored scores without changing the scorer's rules.";
