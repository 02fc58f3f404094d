/**
 * `wiremcp skills`: the Skills extension from the command line. Lists a server's skills (name, description, files
 * and bytes, or "dynamic"), shows one entry's manifest, reads a skill file verified against its entry (a lying
 * digest, size or frontmatter is an error, exit code 1, and the content is not printed), and lists a directory.
 * Like a host, it never fetches a file it was not asked for.
 */
import type { McpClient } from '@wiremcp/client';
import { SkillsClient, SkillVerificationError, type Skill } from '@wiremcp/ext-skills';
import { connectTarget, cliErrorOf, type ConnectionOptions } from './connect.js';
import { CLI_EXIT_CODES, CliError, type CliExitCode } from './exit-codes.js';
import type { Output } from './operations.js';
import type { Target } from './target.js';

/** What `wiremcp skills` was asked to do. */
export interface SkillsRequest {
  /** Show the entry of the skill whose SKILL.md is at this URI. */
  readonly get?: string;
  /** Read a skill (by name or SKILL.md URI); `file` is a path in it (default its SKILL.md). */
  readonly read?: string;
  readonly file?: string;
  /** List this directory resource. */
  readonly dir?: string;
}

/** Runs `wiremcp skills`. */
export async function skillsCommand(
  target: Target,
  options: ConnectionOptions,
  output: Output,
  request: SkillsRequest,
): Promise<CliExitCode> {
  const connection = await connectTarget(target, options);
  const doing = request.get
    ? `skills --get ${request.get}`
    : request.read
      ? `skills --read ${request.read}`
      : request.dir
        ? `skills --dir ${request.dir}`
        : 'skills';
  try {
    return await run(connection.client, output, request);
  } catch (error) {
    if (error instanceof SkillVerificationError) {
      const lines = error.differences.map((line) => `\n  ${line}`).join('');
      throw new CliError(`${doing}: verification failed (${error.reason}): ${error.message}${lines}`, CLI_EXIT_CODES.serverError, {
        cause: error,
      });
    }
    throw cliErrorOf(error, doing);
  } finally {
    await connection.close();
  }
}

async function run(client: McpClient, output: Output, request: SkillsRequest): Promise<CliExitCode> {
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported)
    throw new CliError('the server does not serve skills (no io.modelcontextprotocol/skills extension)', CLI_EXIT_CODES.serverError);
  const { style } = output;
  if (request.dir !== undefined) {
    const { resources } = await skills.readDirectory(request.dir);
    print(output, { resources }, () =>
      resources
        .map((entry) => `${entry.mimeType === 'inode/directory' ? `${entry.name}/` : entry.name}  ${style.dim(entry.uri)}\n`)
        .join(''),
    );
    return CLI_EXIT_CODES.ok;
  }
  if (request.get !== undefined) {
    const { skill } = await skills.get(request.get);
    print(output, { skill }, () => renderEntry(skill, output));
    return CLI_EXIT_CODES.ok;
  }
  if (request.read !== undefined) {
    const skill = await find(skills, request.read);
    const file = await skills.read(skill, request.file);
    if (output.json) {
      const { bytes, ...rest } = file;
      print(output, { ...rest, size: bytes.length }, () => '');
    } else if (file.text !== undefined) output.out(file.text.endsWith('\n') ? file.text : `${file.text}\n`);
    else output.out(`${style.dim(`(${file.bytes.length} bytes of ${file.mimeType ?? 'binary data'}, verified)`)}\n`);
    return CLI_EXIT_CODES.ok;
  }
  const listing = await skills.list();
  print(output, listing, () => {
    const lines = listing.skills.map((skill) => {
      const files =
        skill.resources === 'dynamic'
          ? 'dynamic'
          : `${skill.resources.length} files, ${skill.resources.reduce((sum, file) => sum + file.size, 0)} bytes`;
      return `${style.bold(skill.frontmatter.name)}  ${skill.frontmatter.description}\n  ${style.dim(`${skill.uri} (${files})`)}\n`;
    });
    const invalid = listing.invalid.map(
      (entry) => `${style.red('refused')} entry ${entry.index}${entry.uri ? ` ${entry.uri}` : ''}: ${entry.reason}\n`,
    );
    return lines.join('') + invalid.join('') || `${style.dim('(no skills listed)')}\n`;
  });
  return CLI_EXIT_CODES.ok;
}

/** The skill named `ref`: a SKILL.md URI (fetched with skills/get), or a name from the listing. */
async function find(skills: SkillsClient, ref: string): Promise<Skill> {
  if (ref.includes('://')) return (await skills.get(ref)).skill;
  const matches = (await skills.list()).skills.filter((skill) => skill.frontmatter.name === ref);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new CliError(`no skill named ${JSON.stringify(ref)} is listed; give its SKILL.md URI`, CLI_EXIT_CODES.serverError);
  throw new CliError(
    `${matches.length} skills are named ${JSON.stringify(ref)}: ${matches.map((skill) => skill.uri).join(', ')}; give the URI`,
    CLI_EXIT_CODES.usage,
  );
}

function renderEntry(skill: Skill, output: Output): string {
  const { style } = output;
  const head = `${style.bold(skill.frontmatter.name)}  ${style.dim(skill.uri)}\n${JSON.stringify(skill.frontmatter, null, 2)}\n`;
  if (skill.resources === 'dynamic') return `${head}files: dynamic (no digests)\n`;
  return head + skill.resources.map((file) => `  ${file.uri}  ${file.size} bytes  ${style.dim(file.digest)}\n`).join('');
}

function print(output: Output, value: unknown, human: () => string): void {
  output.out(output.json ? `${JSON.stringify(value, null, 2)}\n` : human());
}
