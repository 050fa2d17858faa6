import type { Metadata } from "next";
import { formatBytes } from "@/lib/core/format/bytes";
import { getOpenApiDocument } from "@/lib/web/api/api-document";
import { describeType, fieldRows, refName, type FieldRow, type JsonSchema } from "@/lib/web/api/describe-schema";
import { CLI_TOOLS, readCliTool, type CliToolFile } from "@/lib/domain/releases/cli-downloads";
import { TableShell } from "@/components/ui/table-shell";

export const metadata: Metadata = { title: "API" };
export const dynamic = "force-dynamic";

type Parameter = { name: string; in: string; required: boolean; description?: string; schema: JsonSchema };
type Response = { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, { description: string }> };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
};

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-emerald-100 text-emerald-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-rose-100 text-rose-900",
};

/** Descriptions are CommonMark; the page shows their `code` spans as code and the rest as text. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : <span key={index}>{part}</span>))}
    </>
  );
}

function authText(operation: Operation): string {
  if (operation.security.length === 0) return "No credentials needed.";
  const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
  return schemes.includes("bearerToken")
    ? "An API token (Authorization: Bearer <token>) or a signed-in browser session."
    : "A signed-in browser session only; API tokens are refused.";
}

function SchemaLink({ schema }: { schema: JsonSchema }) {
  const name = refName(schema);
  if (name !== null) return <a href={`#schema-${name}`}>{name}</a>;
  return <span>{describeType(schema)}</span>;
}

function FieldTable({ rows, caption, names }: { rows: FieldRow[]; caption: string; names: ReadonlySet<string> }) {
  if (rows.length === 0) return null;
  return (
    <TableShell
      caption={caption}
      head={
        <>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Meaning</th>
        </>
      }
    >
      {rows.map((row) => (
        <tr key={row.name} className="border-b border-line align-top">
          <th scope="row">
            <code>{row.name}</code>
          </th>
          <td>
            <TypeText type={row.type} names={names} />
          </td>
          <td>{row.isRequired ? "yes" : "no"}</td>
          <td>{row.description}</td>
        </tr>
      ))}
    </TableShell>
  );
}

/** A type in words, with the component names in it linked to their section. */
function TypeText({ type, names }: { type: string; names: ReadonlySet<string> }) {
  const parts = type.split(/(\b[A-Z][A-Za-z]+\b)/);
  return (
    <>
      {parts.map((part, index) =>
        names.has(part) ? (
          <a key={index} href={`#schema-${part}`}>
            {part}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}

// eslint-disable-next-line max-lines-per-function -- one operation's whole documentation block (inputs, headers, responses) in reading order
function OperationSection({ path, method, operation, names }: { path: string; method: string; operation: Operation; names: ReadonlySet<string> }) {
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined;
  return (
    <section id={operation.operationId} aria-labelledby={`${operation.operationId}-title`} className="space-y-3 rounded border border-line bg-white p-4">
      <h3 id={`${operation.operationId}-title`} className="flex flex-wrap items-baseline gap-2 text-lg font-semibold">
        <span className={`rounded px-2 py-0.5 font-mono text-sm uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
        <code>{path}</code>
        <span className="font-normal">{operation.summary}</span>
      </h3>
      {operation.description && (
        <p className="max-w-3xl">
          <Prose text={operation.description} />
        </p>
      )}
      <p className="text-sm">
        <strong>Authentication:</strong> {authText(operation)}
      </p>
      {parameters.length > 0 && (
        <TableShell
          caption="Parameters"
          tableClassName="min-w-full text-sm"
          head={
            <>
              <th scope="col">Name</th>
              <th scope="col">In</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Meaning</th>
            </>
          }
        >
          {parameters.map((parameter) => (
            <tr key={`${parameter.in}:${parameter.name}`} className="border-b border-line align-top">
              <th scope="row">
                <code>{parameter.name}</code>
              </th>
              <td>{parameter.in}</td>
              <td>{describeType(parameter.schema)}</td>
              <td>{parameter.required ? "yes" : "no"}</td>
              <td>{parameter.description ?? ""}</td>
            </tr>
          ))}
        </TableShell>
      )}
      {body && (
        <div className="space-y-1 text-sm">
          <p>
            <strong>Request body</strong> (<code>{body[0]}</code>): <SchemaLink schema={body[1].schema} />
          </p>
          {refName(body[1].schema) === null && <FieldTable rows={fieldRows(body[1].schema)} caption="Request fields" names={names} />}
        </div>
      )}
      <TableShell
        caption="Responses"
        tableClassName="min-w-full text-sm"
        head={
          <>
            <th scope="col">Status</th>
            <th scope="col">Meaning</th>
            <th scope="col">Body</th>
          </>
        }
      >
        {Object.entries(operation.responses).map(([status, response]) => {
          const content = response.content ? Object.entries(response.content)[0] : undefined;
          const headers = Object.entries(response.headers ?? {});
          return (
            <tr key={status} className="border-b border-line align-top">
              <th scope="row">{status}</th>
              <td>
                <Prose text={response.description} />
                {headers.map(([name, header]) => (
                  <span key={name} className="block text-muted">
                    <code>{name}</code>: {header.description}
                  </span>
                ))}
              </td>
              <td>
                {content ? (
                  <>
                    <code>{content[0]}</code> <SchemaLink schema={content[1].schema} />
                  </>
                ) : (
                  "none"
                )}
              </td>
            </tr>
          );
        })}
      </TableShell>
    </section>
  );
}

/** /docs/api: the OpenAPI document in words, rendered on the server from /api/openapi.json's source. */
type OpenApiDocument = ReturnType<typeof getOpenApiDocument>;
type ApiOperation = { path: string; method: string; operation: Operation };

export default async function ApiDocsPage() {
  const document = getOpenApiDocument();
  const client = await readCliTool(CLI_TOOLS.client);
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
  const schemas = Object.entries(document.components.schemas).sort(([a], [b]) => a.localeCompare(b));
  const names = new Set(schemas.map(([name]) => name));
  return (
    <div className="space-y-10">
      <ApiDocsHeader document={document} client={client} />

      <OperationsIndex document={document} operations={operations} />

      {document.tags.map((tag) => (
        <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="space-y-4">
          <h2 id={`tag-${tag.name}`} className="text-2xl font-semibold">
            {tag.name}
          </h2>
          {operations
            .filter(({ operation }) => operation.tags.includes(tag.name))
            .map((entry) => (
              <OperationSection key={entry.operation.operationId} {...entry} names={names} />
            ))}
        </section>
      ))}

      <SchemasSection schemas={schemas} names={names} />
    </div>
  );
}

function ApiDocsHeader({ document, client }: { document: OpenApiDocument; client: CliToolFile | null }) {
  return (
          <header className="space-y-3">
            <h1 className="text-3xl font-bold">API</h1>
            <p className="max-w-3xl">
              <Prose text={document.info.description} />
            </p>
            <p className="max-w-3xl">
              The machine-readable description is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {document.openapi}, version{" "}
              {document.info.version}, JSON Schema 2020-12): generate a Python, R or other client from it. Paths are relative to this site.
            </p>
            <p className="max-w-3xl" data-testid="api-client-download">
              A ready client for the terminal:{" "}
              {client ? (
                <>
                  <a href={CLI_TOOLS.client.downloadPath} download>
                    {CLI_TOOLS.client.fileName}
                  </a>{" "}
                  ({formatBytes(client.size)}, SHA-256 <code className="break-all text-xs">{client.sha256}</code>)
                </>
              ) : (
                <span role="note">{CLI_TOOLS.client.missingMessage}</span>
              )}
              . With Node.js 20 or later: <code>node {CLI_TOOLS.client.fileName} login</code>, then{" "}
              <code>node {CLI_TOOLS.client.fileName} submit preds.jsonl --wait</code>.
            </p>
            <pre className="overflow-x-auto rounded bg-slate-100 p-3 text-sm">{`curl -H "Authorization: Bearer $IRC_TOKEN" -F file=@preds.jsonl <site>/api/submissions
    curl -H "Authorization: Bearer $IRC_TOKEN" <site>/api/submissions/ID`}</pre>
          </header>
  );
}

function OperationsIndex({ document, operations }: { document: OpenApiDocument; operations: ApiOperation[] }) {
  return (
    <nav aria-labelledby="operations-index" className="space-y-2">
      <h2 id="operations-index" className="text-2xl font-semibold">
        Operations
      </h2>
      {document.tags.map((tag) => (
        <div key={tag.name}>
          <h3 className="font-semibold">{tag.name}</h3>
          <p className="text-sm text-muted">{tag.description}</p>
          <ul className="list-disc pl-6 text-sm">
            {operations
              .filter(({ operation }) => operation.tags.includes(tag.name))
              .map(({ path, method, operation }) => (
                <li key={operation.operationId}>
                  <a href={`#${operation.operationId}`}>
                    <code>
                      {method.toUpperCase()} {path}
                    </code>
                  </a>{" "}
                  {operation.summary}
                </li>
              ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function SchemasSection({ schemas, names }: { schemas: [string, JsonSchema][]; names: ReadonlySet<string> }) {
  return (
    <section aria-labelledby="schemas" className="space-y-4">
      <h2 id="schemas" className="text-2xl font-semibold">
        Schemas
      </h2>
      {schemas.map(([name, schema]) => (
        <div key={name} id={`schema-${name}`} className="space-y-2 rounded border border-line bg-white p-4">
          <h3 className="font-mono text-lg font-semibold">{name}</h3>
          {typeof schema.description === "string" && <p>{schema.description}</p>}
          {Array.isArray(schema.oneOf) ? (
            (schema.oneOf as JsonSchema[]).map((member, index) => (
              <FieldTable key={index} rows={fieldRows(member)} caption={`Variant ${index + 1}`} names={names} />
            ))
          ) : fieldRows(schema).length > 0 ? (
            <FieldTable rows={fieldRows(schema)} caption={`Fields of ${name}`} names={names} />
          ) : (
            <p className="text-sm">{describeType(schema)}</p>
          )}
        </div>
      ))}
    </section>
  );
}
