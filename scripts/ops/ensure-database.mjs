// Creates the database named in DATABASE_URL when it does not exist yet.
import pg from "pg";

const url = new URL(process.env.DATABASE_URL ?? "");
const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
if (!/^[A-Za-z0-9_]+$/.test(name)) {
  console.error(`ensure-database: refusing unusual database name "${name}"`);
  process.exit(2);
}
const client = new pg.Client({
  host: url.hostname,
  port: Number(url.port || 5432),
  user: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
  database: "postgres",
});
await client.connect();
const found = await client.query("select 1 from pg_database where datname = $1", [name]);
if (found.rowCount === 0) {
  await client.query(`create database "${name}"`);
  console.error(`ensure-database: created ${name}`);
}
await client.end();
