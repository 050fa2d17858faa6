import { DATASET_API } from "@/lib/web/api/operations/dataset";
import { AppError } from "@/lib/core/errors";
import { route } from "@/lib/web/http/route";
import { isDownloadName } from "@/lib/core/dataset/download-format";
import { serveDownload } from "@/lib/domain/releases/serve-download";

export const dynamic = "force-dynamic";

/** GET /dataset/download/{train,dev,test,kb}.jsonl?release=ID — the active release unless given. */
export const GET = route(DATASET_API.downloadDataset.input, async ({ request, params }) => {
  if (!isDownloadName(params.file)) {
    throw new AppError("not_found", `There is no download called "${params.file}". Try train.jsonl, dev.jsonl, test.jsonl or kb.jsonl.`);
  }
  return serveDownload(request, params.file);
});
