import { tokenize } from "./tokenize";

/**
 * Okapi BM25 over an in-memory inverted index (docs/baselines.md).
 *
 *   score(D, Q) = sum over query terms t of
 *                 qtf(t) * idf(t) * tf(t, D) * (k1 + 1) / (tf(t, D) + k1 * (1 - b + b * |D| / avgdl))
 *   idf(t)      = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
 *
 * with k1 = 1.2 and b = 0.75. A query term that occurs qtf times counts qtf
 * times (as in Lucene and rank_bm25). The idf is always positive, so every
 * document sharing a term with the query scores above zero and only those
 * documents are returned.
 *
 * Everything that depends on the document alone (idf times the saturated,
 * length-normalised tf) is computed once per posting when the index is built,
 * so a query is a sum over its postings into a Float64Array followed by a
 * bounded heap for the top k.
 */

const BM25_K1 = 1.2;
const BM25_B = 0.75;

type Bm25Document = { id: string; text: string };
type Bm25Hit = { id: string; score: number };
type Bm25Options = { k1?: number; b?: number };

type Postings = {
  /** Indexes of the documents holding the term, ascending. */
  documents: Int32Array;
  /** idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |D| / avgdl)) for each of them. */
  weights: Float64Array;
};

export type Bm25Index = {
  readonly k1: number;
  readonly b: number;
  /** Document ids in the order given; a document's index is its position here. */
  readonly ids: readonly string[];
  /** Number of terms of each document, after tokenising. */
  readonly documentLengths: Uint32Array;
  readonly averageDocumentLength: number;
  readonly postings: ReadonlyMap<string, Postings>;
  /**
   * Working memory of `search` (one score per document), reused across
   * queries so a run of thousands of queries allocates nothing per document.
   * `search` is synchronous and leaves it zeroed, so sharing it is safe in
   * single-threaded JavaScript.
   */
  readonly scratch: { scores: Float64Array };
};

/** ln(1 + (N - df + 0.5) / (df + 0.5)): the BM25 idf that never goes negative. */
export function inverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

type PostingsDraft = { documents: number[]; frequencies: number[] };

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) {
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

export function createBm25Index(docs: readonly Bm25Document[], options: Bm25Options = {}): Bm25Index {
  const k1 = options.k1 ?? BM25_K1;
  const b = options.b ?? BM25_B;
  const documentCount = docs.length;
  const documentLengths = new Uint32Array(documentCount);
  const drafts = new Map<string, PostingsDraft>();

  let totalLength = 0;
  for (let documentIndex = 0; documentIndex < documentCount; documentIndex += 1) {
    const terms = tokenize(docs[documentIndex]?.text ?? "");
    documentLengths[documentIndex] = terms.length;
    totalLength += terms.length;
    for (const [term, frequency] of countTerms(terms)) {
      let draft = drafts.get(term);
      if (draft === undefined) {
        draft = { documents: [], frequencies: [] };
        drafts.set(term, draft);
      }
      draft.documents.push(documentIndex);
      draft.frequencies.push(frequency);
    }
  }

  // With no terms anywhere there are no postings, so the value never matters; avoid 0/0.
  const averageDocumentLength = totalLength > 0 ? totalLength / documentCount : 1;
  const postings = new Map<string, Postings>();
  for (const [term, draft] of drafts) {
    const documentFrequency = draft.documents.length;
    const idf = inverseDocumentFrequency(documentCount, documentFrequency);
    const documents = Int32Array.from(draft.documents);
    const weights = new Float64Array(documentFrequency);
    for (let i = 0; i < documentFrequency; i += 1) {
      const frequency = draft.frequencies[i] ?? 0;
      const length = documentLengths[documents[i] ?? 0] ?? 0;
      const lengthNorm = 1 - b + (b * length) / averageDocumentLength;
      weights[i] = (idf * frequency * (k1 + 1)) / (frequency + k1 * lengthNorm);
    }
    postings.set(term, { documents, weights });
  }

  return {
    k1,
    b,
    ids: docs.map((doc) => doc.id),
    documentLengths,
    averageDocumentLength,
    postings,
    scratch: { scores: new Float64Array(documentCount) },
  };
}

/** The top `k` documents for a query text, best first; equal scores keep document order. @internal exported for its tests. */
export function search(index: Bm25Index, query: string, k: number): Bm25Hit[] {
  return searchTerms(index, tokenize(query), k);
}

/** `search` for a query that is already tokenised (lets one query serve several indexes). */
export function searchTerms(index: Bm25Index, queryTerms: readonly string[], k: number): Bm25Hit[] {
  const { scores } = index.scratch;
  for (const [term, queryFrequency] of countTerms(queryTerms)) {
    const termPostings = index.postings.get(term);
    if (termPostings === undefined) {
      continue;
    }
    addPostings(scores, termPostings, queryFrequency);
  }

  const best = selectTop(scores, Math.max(0, Math.floor(k)));
  const hits = best.map((documentIndex) => ({ id: index.ids[documentIndex] ?? "", score: scores[documentIndex] ?? 0 }));
  scores.fill(0);
  return hits;
}

/** scores[d] += queryFrequency * weight for every posting of a term: the hot loop of a query. */
function addPostings(scores: Float64Array, postings: Postings, queryFrequency: number): void {
  const { documents, weights } = postings;
  const count = documents.length;
  for (let i = 0; i < count; i += 1) {
    const documentIndex = documents[i] ?? 0;
    scores[documentIndex] = (scores[documentIndex] ?? 0) + queryFrequency * (weights[i] ?? 0);
  }
}

/** True when document `a` ranks before document `b`: higher score, then lower index. */
function ranksBefore(scores: Float64Array, a: number, b: number): boolean {
  const scoreA = scores[a] ?? 0;
  const scoreB = scores[b] ?? 0;
  return scoreA > scoreB || (scoreA === scoreB && a < b);
}

/**
 * The `k` best documents with a positive score, best first, without sorting
 * them all: one pass in document order keeps a heap of size k whose root is
 * the weakest kept document, then the k survivors are sorted. A later
 * document never beats an equal earlier one, so a document only enters on a
 * score strictly above `threshold` (0 until the heap is full, then the root's
 * score): one comparison rejects almost every document. O(N + m log k).
 */
function selectTop(scores: Float64Array, k: number): number[] {
  if (k === 0) {
    return [];
  }
  const heap = new Int32Array(k);
  let size = 0;
  let threshold = 0;
  for (let documentIndex = 0; documentIndex < scores.length; documentIndex += 1) {
    if ((scores[documentIndex] ?? 0) <= threshold) {
      continue;
    }
    if (size < k) {
      heap[size] = documentIndex;
      size += 1;
      siftUp(heap, size - 1, scores);
      if (size < k) {
        continue;
      }
    } else {
      heap[0] = documentIndex;
      siftDown(heap, size, scores);
    }
    threshold = scores[heap[0] ?? 0] ?? 0;
  }
  const byRank = (a: number, b: number): number => (ranksBefore(scores, a, b) ? -1 : 1);
  return Array.from(heap.subarray(0, size)).sort(byRank);
}

/** Heap order: a parent ranks after (is weaker than) its children. */
function siftUp(heap: Int32Array, position: number, scores: Float64Array): void {
  let child = position;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    const childDocument = heap[child] ?? 0;
    const parentDocument = heap[parent] ?? 0;
    if (!ranksBefore(scores, parentDocument, childDocument)) {
      return;
    }
    heap[child] = parentDocument;
    heap[parent] = childDocument;
    child = parent;
  }
}

function siftDown(heap: Int32Array, size: number, scores: Float64Array): void {
  let parent = 0;
  while (true) {
    const left = 2 * parent + 1;
    if (left >= size) {
      return;
    }
    const right = left + 1;
    let weakest = left;
    if (right < size && ranksBefore(scores, heap[left] ?? 0, heap[right] ?? 0)) {
      weakest = right;
    }
    const parentDocument = heap[parent] ?? 0;
    const weakestDocument = heap[weakest] ?? 0;
    if (!ranksBefore(scores, parentDocument, weakestDocument)) {
      return;
    }
    heap[parent] = weakestDocument;
    heap[weakest] = parentDocument;
    parent = weakest;
  }
}
