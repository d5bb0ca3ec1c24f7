/**
 * What `npm start` tells a new user, and nothing it cannot keep: where the sandbox is and who to
 * act as, what the analysis can do with and without a model, and how to see more in the terminal.
 */
export function presentStartBanner(input: { sandboxUrl?: string; analyst: 'openai' | 'offline' | 'scripted'; verbose: boolean }): string {
  const lines = ['', 'Medic is running.'];
  if (input.sandboxUrl) {
    lines.push(
      `  Slack sandbox   ${input.sandboxUrl}`,
      '                  Act as "Alice (approver)" to approve or reject a proposed fix (Approve pushes a',
      '                  fix/… branch to the local remote); "Bob" is not an approver; "Carol" confirms',
      '                  destructive step-ups. Type `help` in the /medic box for the commands.',
    );
  }
  if (input.analyst === 'offline') {
    lines.push(
      '  Analysis        offline, no LLM key: root cause from the stack trace, the code history and the',
      '                  documented error families; a card offers Approve only when Medic has a fix it can',
      '                  propose without a model. Set OPENAI_API_KEY (or OPENAI_BASE_URL for a local model)',
      '                  for model-written root causes and fix proposals.',
    );
  } else {
    lines.push(`  Analysis        ${input.analyst === 'scripted' ? 'scripted answers (MEDIC_LLM_SCRIPT), for drills' : 'by the configured model'}; the offline analyzer takes over if it fails.`);
  }
  lines.push(
    `  Terminal        ${input.verbose ? 'whole cards (--verbose)' : 'one line per card event; `npm start -- --verbose` prints whole cards'}; \`npm run medic -- show <incident>\` prints one.`,
    '',
  );
  return lines.join('\n');
}
