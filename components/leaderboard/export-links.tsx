/** Download links for one table (CSV and JSON at full precision, LaTeX as shown), plus the API URL when there is one. */
export function ExportLinks({ base, label, apiUrl }: { base: string; label: string; apiUrl?: string }) {
  const join = base.includes("?") ? "&" : "?";
  return (
    <p className="text-sm">
      <span className="font-medium">{label}:</span>{" "}
      <a href={`${base}${join}format=csv`} download>
        CSV
      </a>
      {" · "}
      <a href={`${base}${join}format=json`} download>
        JSON
      </a>
      {" · "}
      <a href={`${base}${join}format=tex`} download>
        LaTeX
      </a>
      {apiUrl && (
        <>
          {" · API: "}
          <a href={apiUrl}>
            <code>{apiUrl}</code>
          </a>
        </>
      )}
    </p>
  );
}
