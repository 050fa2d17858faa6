import { errorResponse } from "@/lib/http";
import { AppError } from "@/lib/errors";
import { isDownloadName } from "@/lib/releases/download-format";
import { serveDownload } from "@/lib/releases/serve-download";

export const dynamic = "force-dynamic";

/** GET /dataset/download/{train,dev,test,kb}.jsonl?release=ID — the active release unless given. */
export async function GET(request: Request, context: { params: Promise<{ file: string }> }) {
  try {
    const { file } = await context.params;
    if (!isDownloadName(file)) {
      throw new AppError("not_found", `There is no download called "${file}". Try train.jsonl, dev.jsonl, test.jsonl or kb.jsonl.`);
    }
    return await serveDownload(request, file);
  } catch (error) {
    return errorResponse(error);
  }
}
