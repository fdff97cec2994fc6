/**
 * A small Dockerfile parser: enough of the format for the checks (instructions with their line,
 * `--flags`, exec-form JSON arrays, ENV pairs, stages and global ARG defaults). It rejects what
 * it does not understand instead of guessing, so a Dockerfile it accepts is one the checks
 * really read.
 */

const KEYWORDS = new Set([
  'FROM', 'RUN', 'CMD', 'LABEL', 'MAINTAINER', 'EXPOSE', 'ENV', 'ADD', 'COPY', 'ENTRYPOINT',
  'VOLUME', 'USER', 'WORKDIR', 'ARG', 'ONBUILD', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL',
]);

/** Instructions whose exec form is a JSON array of strings. */
const EXEC_FORM = new Set(['CMD', 'ENTRYPOINT', 'RUN', 'SHELL', 'VOLUME']);

export interface Instruction {
  keyword: string;
  /** Arguments after the keyword and its flags, continuation lines joined with a space. */
  args: string;
  /** `--name=value` flags (`--from`, `--mount`, `--platform`, `--chown`, …); a repeated flag keeps every value. */
  flags: Record<string, string[]>;
  /** The exec form's strings, when the arguments are a JSON array. */
  exec?: string[];
  /** 1-based line of the keyword. */
  line: number;
}

export interface Stage {
  /** `AS <name>`, if any. */
  name?: string;
  /** FROM's image or earlier stage, with global ARG defaults substituted. */
  from: string;
  instructions: Instruction[];
  line: number;
}

export interface Dockerfile {
  /** ARGs before the first FROM: name → default. */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

export class DockerfileError extends Error {}

export function parseDockerfile(text: string): Dockerfile {
  const instructions = logicalLines(text).map(parseInstruction);
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      stages.push(parseFrom(instruction, globalArgs, stages));
      continue;
    }
    const current = stages[stages.length - 1];
    if (current) {
      current.instructions.push(instruction);
    } else if (instruction.keyword === 'ARG') {
      for (const [name, value] of Object.entries(parseArg(instruction))) globalArgs[name] = value;
    } else {
      throw new DockerfileError(`line ${instruction.line}: ${instruction.keyword} before the first FROM (only ARG may come first)`);
    }
  }
  if (stages.length === 0) throw new DockerfileError('no FROM instruction');
  const names = stages.flatMap((stage) => (stage.name ? [stage.name] : []));
  const doubled = names.filter((name, index) => names.indexOf(name) !== index);
  if (doubled.length > 0) throw new DockerfileError(`stage names used twice: ${doubled.join(', ')}`);
  return { globalArgs, stages };
}

interface LogicalLine {
  text: string;
  line: number;
}

/** Joins `\` continuations, drops comments, blank lines and parser directives. */
function logicalLines(text: string): LogicalLine[] {
  const physical = text.split(/\r?\n/);
  const result: LogicalLine[] = [];
  let pending: LogicalLine | undefined;
  physical.forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment lines are removed before continuations are joined, as Docker does.
    if (trimmed.startsWith('#')) return;
    // Blank lines end nothing: inside a continuation Docker skips them too.
    if (trimmed === '') return;
    const continues = /\\\s*$/.test(raw);
    const content = continues ? raw.replace(/\\\s*$/, '') : raw;
    if (pending) {
      pending.text += ` ${content.trim()}`;
    } else {
      pending = { text: content.trim(), line: index + 1 };
    }
    if (!continues) {
      result.push(pending);
      pending = undefined;
    }
  });
  if (pending) throw new DockerfileError(`line ${pending.line}: the file ends inside a \\ continuation`);
  return result;
}

function parseInstruction({ text, line }: LogicalLine): Instruction {
  const match = /^(\S+)\s*(.*)$/.exec(text);
  if (!match) throw new DockerfileError(`line ${line}: cannot read "${text}"`);
  const keyword = match[1].toUpperCase();
  if (!KEYWORDS.has(keyword)) throw new DockerfileError(`line ${line}: unknown instruction ${match[1]}`);
  let rest = match[2];
  if (/<<-?["']?[A-Za-z_]/.test(rest) && ['RUN', 'COPY', 'ADD'].includes(keyword)) {
    throw new DockerfileError(`line ${line}: heredocs are not supported by these checks; use RUN with \\ continuations`);
  }
  const flags: Record<string, string[]> = {};
  if (['FROM', 'RUN', 'COPY', 'ADD', 'HEALTHCHECK'].includes(keyword)) {
    for (;;) {
      const flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest);
      if (!flag) break;
      (flags[flag[1]] ??= []).push(flag[2] ?? '');
      rest = rest.slice(flag[0].length);
    }
  }
  const args = rest.trim();
  const instruction: Instruction = { keyword, args, flags, line };
  if (EXEC_FORM.has(keyword) && args.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      throw new DockerfileError(`line ${line}: ${keyword} starts like an exec form but is not a JSON array: ${args}`);
    }
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
      throw new DockerfileError(`line ${line}: ${keyword}'s exec form must be an array of strings`);
    }
    instruction.exec = parsed as string[];
  }
  if (args === '' && keyword !== 'RUN') throw new DockerfileError(`line ${line}: ${keyword} without arguments`);
  return instruction;
}

function parseFrom(instruction: Instruction, globalArgs: Record<string, string>, earlier: Stage[]): Stage {
  const parts = instruction.args.split(/\s+/);
  let name: string | undefined;
  if (parts.length === 3 && parts[1].toUpperCase() === 'AS') name = parts[2];
  else if (parts.length !== 1) throw new DockerfileError(`line ${instruction.line}: FROM <image> [AS <name>] expected, got "${instruction.args}"`);
  const from = parts[0].replace(/\$\{?(\w+)\}?/g, (whole, arg: string) => {
    if (!(arg in globalArgs)) throw new DockerfileError(`line ${instruction.line}: FROM uses ${whole}, which no ARG before the first FROM defines`);
    return globalArgs[arg];
  });
  if (name !== undefined && !/^[a-z][a-z0-9_.-]*$/.test(name)) throw new DockerfileError(`line ${instruction.line}: stage name "${name}" must be lower case`);
  if (name !== undefined && earlier.some((stage) => stage.name === name)) throw new DockerfileError(`line ${instruction.line}: stage "${name}" defined twice`);
  return { name, from, instructions: [], line: instruction.line };
}

function parseArg(instruction: Instruction): Record<string, string> {
  const match = /^(\w+)(?:=(.*))?$/.exec(instruction.args);
  if (!match) throw new DockerfileError(`line ${instruction.line}: ARG <name>[=<default>] expected`);
  return { [match[1]]: unquote(match[2] ?? '') };
}

/** ENV's variables: `ENV A=1 B="two words"`, or the legacy `ENV A value with spaces`. */
export function envPairs(instruction: Instruction): Record<string, string> {
  const args = instruction.args;
  if (!/^\w+=/.test(args)) {
    const legacy = /^(\w+)\s+(.*)$/.exec(args);
    if (!legacy) throw new DockerfileError(`line ${instruction.line}: cannot read ENV ${args}`);
    return { [legacy[1]]: legacy[2] };
  }
  const pairs: Record<string, string> = {};
  const pattern = /(\w+)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)\s*/gy;
  let consumed = 0;
  for (let match = pattern.exec(args); match; match = pattern.exec(args)) {
    pairs[match[1]] = unquote(match[2]);
    consumed = pattern.lastIndex;
    if (consumed >= args.length) break;
  }
  if (consumed < args.length) throw new DockerfileError(`line ${instruction.line}: cannot read ENV ${args}`);
  return pairs;
}

function unquote(value: string): string {
  if (/^".*"$/.test(value)) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  if (/^'.*'$/.test(value)) return value.slice(1, -1);
  return value;
}

export function stageNamed(dockerfile: Dockerfile, name: string): Stage | undefined {
  return dockerfile.stages.find((stage) => stage.name === name);
}

/**
 * A target's stages from the external base image down to the target itself: what the final
 * image is made of (USER, ENV, CMD are inherited along this chain).
 */
export function stageChain(dockerfile: Dockerfile, target: string): Stage[] {
  const chain: Stage[] = [];
  let stage = stageNamed(dockerfile, target);
  if (!stage) throw new DockerfileError(`no stage named ${target}`);
  while (stage) {
    if (chain.includes(stage)) throw new DockerfileError(`stage ${target} inherits from itself`);
    chain.unshift(stage);
    const parent = stageNamed(dockerfile, stage.from);
    stage = parent && dockerfile.stages.indexOf(parent) < dockerfile.stages.indexOf(stage) ? parent : undefined;
  }
  return chain;
}

/** The external image a target finally builds on (`node:20-slim`, …). */
export function baseImage(dockerfile: Dockerfile, target: string): string {
  return stageChain(dockerfile, target)[0].from;
}

/** Every instruction of a target's chain, base first. */
export function chainInstructions(dockerfile: Dockerfile, target: string): Instruction[] {
  return stageChain(dockerfile, target).flatMap((stage) => stage.instructions);
}

/** The last instruction of a kind along a target's chain (the one in effect in the image). */
export function effective(dockerfile: Dockerfile, target: string, keyword: string): Instruction | undefined {
  return chainInstructions(dockerfile, target)
    .filter((instruction) => instruction.keyword === keyword)
    .pop();
}

/** ENV as the image has it: every ENV along the chain, later ones winning. */
export function effectiveEnv(dockerfile: Dockerfile, target: string): Record<string, string> {
  return Object.assign({}, ...chainInstructions(dockerfile, target).filter((i) => i.keyword === 'ENV').map(envPairs)) as Record<string, string>;
}

/**
 * The stages a target's build needs (its chain and, through COPY --from, every stage those copy
 * from), so a check can look at "everything that goes into this image".
 */
export function stagesNeeded(dockerfile: Dockerfile, target: string): Stage[] {
  const needed = new Set<Stage>();
  const visit = (name: string) => {
    for (const stage of stageChain(dockerfile, name)) {
      if (needed.has(stage)) continue;
      needed.add(stage);
      for (const instruction of stage.instructions) {
        for (const from of instruction.flags.from ?? []) {
          if (stageNamed(dockerfile, from)) visit(from);
        }
      }
    }
  };
  visit(target);
  return dockerfile.stages.filter((stage) => needed.has(stage));
}
