import { expect, test } from 'vitest';
import { CommandLineError, splitCommandLine } from './command-line.js';

test('words, quotes and backslashes as a POSIX shell splits them, without expansion', () => {
  expect(splitCommandLine('node  server.js --flag')).toEqual(['node', 'server.js', '--flag']);
  expect(splitCommandLine(`npx -y "@scope/pkg" 'a b' c\\ d`)).toEqual(['npx', '-y', '@scope/pkg', 'a b', 'c d']);
  expect(splitCommandLine(`sh -c "echo \\"hi\\" \\$HOME"`)).toEqual(['sh', '-c', 'echo "hi" $HOME']);
  expect(splitCommandLine(`a'b'"c" '' x`)).toEqual(['abc', '', 'x']);
  expect(splitCommandLine('  ')).toEqual([]);
});

test('unterminated quotes and a trailing backslash are errors', () => {
  expect(() => splitCommandLine('node "server.js')).toThrow(CommandLineError);
  expect(() => splitCommandLine("node 'x")).toThrow(/single quote/);
  expect(() => splitCommandLine('node \\')).toThrow(/backslash/);
});
