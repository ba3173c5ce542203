/**
 * One process on the embedded database, always (issue 28 point 5, decision 0047): the lock files
 * deleted under a running server neither send the admin CLI to the database nor let a second
 * server in, and the server puts them back.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLinkTo, type RunningServer, removeDir, runCli, startServer } from '../support/server.ts';

describe('the lock files deleted under a running server', () => {
  let server: RunningServer;
  const record = () => path.join(server.dataDir, 'servidor.lock');
  const claim = () => path.join(server.dataDir, 'servidor.lock.d');
  const holder = () => {
    try {
      return (JSON.parse(readFileSync(record(), 'utf8')) as { pid: number }).pid;
    } catch {
      return null;
    }
  };
  const deleteLock = () => {
    rmSync(record(), { force: true });
    rmSync(claim(), { recursive: true, force: true });
  };

  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  });
  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('lets the admin CLI create the account through the server, which puts its lock back', async () => {
    deleteLock();
    const result = await runCli(['crear', '--email', 'sin-candado@example.cl', '--nombres', 'Ana', '--apellidos', 'Rojas'], server.env);
    expect(result).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'Cuenta creada para sin-candado@example.cl; se envió el correo de activación.\n',
    });
    // The server sees the account: its activation link works there ('Token inválido o expirado' when the CLI opened the database itself).
    const token = (await lastLinkTo(server.dataDir, 'sin-candado@example.cl')).split('/').at(-1);
    const activar = await fetch(`${server.url}/api/usuarios/activar-cuenta/?token=${token}`);
    expect(await activar.json()).toEqual({ email: 'sin-candado@example.cl' });

    await expect.poll(() => holder() === server.process.pid && existsSync(claim()), { timeout: 5000 }).toBe(true);
    expect(server.output()).toMatch(/"msg":"data directory lock restored"/);
    expect(server.output()).not.toMatch(/taken by another process/);
  });

  it('refuses a second server on the same DATA_DIR after the lock was deleted and put back', async () => {
    deleteLock();
    await expect.poll(() => holder() === server.process.pid && existsSync(claim()), { timeout: 5000 }).toBe(true);
    await expect(startServer({ dataDir: server.dataDir })).rejects.toThrow(
      new RegExp(`Another server \\(pid ${server.process.pid}, ${server.url}\\) is already using the data directory`),
    );
  });

  it('refuses a second server while only the claim kept fresh is left, its record deleted', async () => {
    rmSync(record(), { force: true });
    await expect(startServer({ dataDir: server.dataDir })).rejects.toThrow(/is already using .*the data directory/);
    expect(server.process.exitCode).toBeNull();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
