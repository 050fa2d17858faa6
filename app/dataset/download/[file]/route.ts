import { API } from "@/lib/api/operations";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { isDownloadName } from "@/lib/releases/download-format";
import { serveDownload } from "@/lib/releases/serve-download";

export const dynamic = "force-dynamic";

/** GET /dataset/download/{train,dev,test,kb}.jsonl?release=ID — the active release unless given. */
export const GET = route(API.downloadDataset.input, async ({ request, params }) => {
  if (!isDownloadName(params.file)) {
    throw new AppError("not_found", `There is no download called "${params.file}". Try train.jsonl, dev.jsonl, test.jsonl or kb.jsonl.`);
  }
  return serveDownload(request, params.file);
});
