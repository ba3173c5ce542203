/**
 * One server for the browser suite: the built site on a fresh data directory, as a teacher's
 * school would run it. Tests that need their own server (restarts, locks) start one themselves.
 */
import type { TestProject } from 'vitest/node';
import { type RunningServer, removeDir, startServer } from '../support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    serverEnv: Record<string, string>;
  }
}

let server: RunningServer | undefined;

export default async function setup(project: TestProject) {
  server = await startServer({ clusterNuevo: true });
  project.provide('baseUrl', server.url);
  project.provide('dataDir', server.dataDir);
  project.provide(
    'serverEnv',
    Object.fromEntries(Object.entries(server.env).filter((e): e is [string, string] => typeof e[1] === 'string')),
  );
  return async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
  };
}
