import { z } from "zod";
import { errorAnalysisSchema, runComparisonSchema, samplePageSchema, sampleRowSchema, submissionNoteSchema } from "@/lib/core/submissions/sample-schemas";
import { component } from "./registry";

/**
 * The instance browser, the error analysis and the comparison of two dev runs
 * (lib/core/submissions/sample-schemas.ts), registered under their component names.
 */
component("SampleRow", sampleRowSchema);
export const samplePageComponent = component("SamplePage", samplePageSchema);
export const errorAnalysisComponent = component("ErrorAnalysis", errorAnalysisSchema);
export const runComparisonComponent = component("RunComparison", runComparisonSchema);
export const submissionNoteComponent = component("SubmissionNoteUpdate", submissionNoteSchema);

export const submissionNoteSavedSchema = component("SubmissionNote", z.object({ id: z.string(), note: z.string() }));
