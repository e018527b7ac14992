import type { Command } from 'commander';
import type { RunCommand } from './runner.ts';

export function registerAdminCommands(_program: Command, _run: RunCommand): void {}
