// Scratch PostgreSQL databases of the tests and benchmarks: one made on a server, dropped afterwards.
import pg from "pg";

/** A scratch database: its URL, and `drop()`, which removes it even while connections remain. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database `name` on the PostgreSQL server at `serverUrl` (a URL whose user may
 * create databases; its path names the database to connect through).
 * @returns the new database's URL (`serverUrl` with the path `/<name>`) and `drop()`.
 * @throws the driver's error when the server cannot be reached or refuses the database.
 */
export async function createDatabase(serverUrl: string, name: string): Promise<ScratchDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
