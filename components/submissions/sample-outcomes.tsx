"use client";

import { useEffect, useState } from "react";
import type { SampleOutcomePage } from "@/lib/submissions/get-sample-outcomes";

type Filter = "all" | "right" | "wrong";
const TIER_NAMES: Record<number, string> = { 1: "exact", 2: "alias", 3: "containment", 4: "jaccard" };

/** Per-sample feedback of a dev submission: the answer, the gold, the tier or rank. */
export function SampleOutcomes({ submissionId, track }: { submissionId: string; track: "open" | "closed" }) {
  const [filter, setFilter] = useState<Filter>("all");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<SampleOutcomePage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    fetch(`/api/submissions/${submissionId}/samples?page=${page}&pageSize=50&filter=${filter}`, { cache: "no-store" })
      .then(async (response) => {
        const body = (await response.json()) as SampleOutcomePage | { error: { message: string } };
        if (!isCurrent) return;
        if ("error" in body) setError(body.error.message);
        else setData(body);
      })
      .catch(() => isCurrent && setError("Could not load the per-sample outcomes."));
    return () => {
      isCurrent = false;
    };
  }, [submissionId, page, filter]);

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section aria-labelledby="samples-heading" className="space-y-3">
      <h2 id="samples-heading" className="text-xl font-semibold">
        Per-sample feedback (dev)
      </h2>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor="sample-filter">Show</label>
        <select
          id="sample-filter"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value as Filter);
            setPage(1);
          }}
          className="rounded border border-line px-2 py-1"
        >
          <option value="all">all samples</option>
          <option value="right">right ({track === "open" ? "alias tier or better" : "Hit@1"})</option>
          <option value="wrong">wrong</option>
        </select>
        {data && (
          <span className="text-muted">
            {data.total} samples · page {data.page} of {pages}
          </span>
        )}
        <button type="button" className="rounded border border-line px-2 py-1 disabled:opacity-40" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <button type="button" className="rounded border border-line px-2 py-1 disabled:opacity-40" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          Next
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {data && (
        <div className="relative overflow-x-auto">
          <table className="min-w-full bg-white text-sm" data-testid="sample-outcomes">
            <thead className="border-b border-line">
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">{track === "open" ? "Your prediction" : "Your top 5"}</th>
                <th scope="col">Gold entity</th>
                <th scope="col">{track === "open" ? "Tier" : "Gold rank"}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row) => (
                <tr key={row.id} className={`border-b border-line ${row.isRight ? "bg-emerald-50" : ""}`}>
                  <th scope="row" className="font-mono text-xs">
                    {row.id}
                  </th>
                  <td>{row.answer || <em className="text-muted">(empty)</em>}</td>
                  <td>
                    {row.gold.name} <span className="text-muted">({row.gold.qid}, {row.gold.type})</span>
                  </td>
                  <td>
                    {track === "open"
                      ? row.tier
                        ? `${row.tier} · ${TIER_NAMES[row.tier]}`
                        : "no match"
                      : row.rank
                        ? `${row.rank}${row.isAliasHitAt1 ? " · alias hit" : ""}`
                        : row.isAliasHitAt1
                          ? "not ranked · alias hit@1"
                          : "not ranked"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
