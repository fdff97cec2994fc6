import { isolateQueues } from '@pfs/testing';
import { DockerfileError, effective, effectiveEnv, envPairs, parseDockerfile, stageChain, stagesNeeded } from './support/dockerfile';

isolateQueues('deploy-parser');

// The checks are only as good as the parser: these pin what it reads and what it refuses.
describe('the Dockerfile parser', () => {
  const sample = [
    '# syntax=docker/dockerfile:1',
    'ARG BASE=node:20-slim',
    '',
    'FROM ${BASE} AS base',
    'ENV A=1 B="two words" \\',
    '    C=3',
    'RUN --mount=type=cache,target=/x echo one \\',
    '  # a comment inside the continuation is dropped',
    '  && echo two',
    'FROM base AS app',
    'COPY --from=base /x /y',
    'USER node',
    'CMD ["node", "main.js"]',
  ].join('\n');

  it('reads stages, global ARG defaults, flags, continuations and exec forms', () => {
    const parsed = parseDockerfile(sample);
    expect(parsed.globalArgs).toEqual({ BASE: 'node:20-slim' });
    expect(parsed.stages.map((stage) => [stage.name, stage.from, stage.line])).toEqual([
      ['base', 'node:20-slim', 4],
      ['app', 'base', 10],
    ]);
    const run = parsed.stages[0].instructions[1];
    expect(run).toMatchObject({ keyword: 'RUN', line: 7, flags: { mount: ['type=cache,target=/x'] }, args: 'echo one && echo two' });
    expect(effective(parsed, 'app', 'CMD')?.exec).toEqual(['node', 'main.js']);
    expect(effectiveEnv(parsed, 'app')).toEqual({ A: '1', B: 'two words', C: '3' });
    expect(stageChain(parsed, 'app').map((stage) => stage.name)).toEqual(['base', 'app']);
    expect(stagesNeeded(parsed, 'app').map((stage) => stage.name)).toEqual(['base', 'app']);
  });

  it('reads the legacy ENV form', () => {
    const [stage] = parseDockerfile('FROM node:20-slim\nENV GREETING hello world').stages;
    expect(envPairs(stage.instructions[0])).toEqual({ GREETING: 'hello world' });
  });

  it.each([
    ['an unknown instruction', 'FROM node:20-slim\nRUNN echo', /unknown instruction RUNN/],
    ['an instruction before FROM', 'RUN echo\nFROM node:20-slim', /before the first FROM/],
    ['a broken exec form', 'FROM node:20-slim\nCMD ["node", main.js]', /not a JSON array/],
    ['a FROM with an undefined ARG', 'FROM ${NOPE}', /no ARG before the first FROM defines/],
    ['a stage defined twice', 'FROM node:20-slim AS a\nFROM node:20-slim AS a', /defined twice/],
    ['a dangling continuation', 'FROM node:20-slim\nRUN echo \\', /ends inside/],
    ['a heredoc', 'FROM node:20-slim\nRUN <<EOF\necho\nEOF', /heredocs/],
    ['no FROM at all', 'ARG A=1', /no FROM/],
  ])('refuses %s', (_label, text, message) => {
    expect(() => parseDockerfile(text)).toThrow(DockerfileError);
    expect(() => parseDockerfile(text)).toThrow(message);
  });
});
