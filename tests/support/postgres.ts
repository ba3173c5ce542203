/** One statement on a PostgreSQL server, through its own short connection (creating or dropping a test database). */
import pg from 'pg';

export async function enServidor(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
