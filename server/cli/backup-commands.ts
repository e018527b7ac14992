import type { Command } from 'commander';
import type { RunCommand } from './runner.ts';

export function registerBackupCommands(_program: Command, _run: RunCommand): void {}
