import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ErrorAnalysisSection } from "@/components/samples/error-analysis";
import { SampleBrowser } from "@/components/samples/sample-browser";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { isAppError } from "@/lib/core/errors";
import { getErrorAnalysis } from "@/lib/domain/submissions/get-error-analysis";
import { getSamplePage, parseSampleQuery } from "@/lib/domain/submissions/get-sample-page";
import { queryHref } from "@/lib/core/submissions/query-href";
import { sampleQuerySchema, type SampleQuery } from "@/lib/core/submissions/sample-schemas";

export const metadata: Metadata = { title: "Samples and errors" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/** The instance browser of a dev submission: error classes, then every sample with filters. Test submissions: 404. */
export default async function SubmissionSamplesPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const { id } = await params;
  const search = await searchParams;
  const path = `/submissions/${id}/samples`;
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  let query: SampleQuery;
  let queryError: string | null = null;
  try {
    query = parseSampleQuery(search);
  } catch (error) {
    if (!isAppError(error)) throw error;
    queryError = error.message;
    query = sampleQuerySchema.parse({});
  }
  // No comparison here: that is the compare page's.
  query = { ...query, against: undefined };
  const load = (asked: SampleQuery) => Promise.all([getSamplePage(actor, id, asked), getErrorAnalysis(actor, id)]);
  let result: Awaited<ReturnType<typeof load>>;
  try {
    result = await load(query);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    // A filter of the other track (a rank bucket on an open-world run): say so, show everything.
    if (!isAppError(error) || error.code !== "validation") throw error;
    queryError = error.message;
    query = sampleQuerySchema.parse({});
    result = await load(query);
  }
  const [page, analysis] = result;
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href={`/submissions/${id}`}>← Submission</Link> · <Link href="/runs">My runs</Link>
      </p>
      <h1 className="text-2xl font-bold">Samples and errors ({page.track}-world, dev)</h1>
      {queryError && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm">
          {queryError} Showing all samples instead.
        </p>
      )}
      <ErrorAnalysisSection analysis={analysis} browseHref={(filters) => queryHref(path, filters)} />
      <SampleBrowser page={page} query={query} path={path} apiPath={`/api/submissions/${id}/samples`} collections={page.collections} />
    </div>
  );
}
