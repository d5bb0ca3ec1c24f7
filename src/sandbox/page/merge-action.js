/* global document, fetch, Event */
// "Merge fix branch" in the sandbox page: the newcomer plays the reviewer who merges the PR, on
// the thread reply where Medic announced a pushed fix branch. The sandbox reads the branch from
// that reply and merges it into the default branch of its local bare remote (/sandbox/merge);
// the thread then says who merged it, and the button shows the branch merged.

const ANNOUNCED = /`(fix\/[A-Za-z0-9][A-Za-z0-9._-]{0,120})`/;
const MERGED = (branch) => `🔀 \`${branch}\``;

// A sandbox without a local remote shows no button. Medic seeds the sample's remote while the page
// may already be open, so until the sandbox says yes it is asked again (at most every two seconds)
// as the page renders; the page's next render after a yes shows the buttons.
let available = false;
let askedAt = 0;
function askAvailable() {
  if (available || Date.now() - askedAt < 2_000) return;
  askedAt = Date.now();
  fetch('/sandbox/merge')
    .then((response) => response.json())
    .then((body) => {
      available = body.available === true;
      // The page renders only when its state changes: it is told to render the buttons now.
      if (available) document.dispatchEvent(new Event('medic-merge-available'));
    })
    .catch(() => undefined);
}
askAvailable();

function setStatus(text) {
  const status = document.querySelector('#status');
  if (status) status.textContent = text;
}

async function merge(reply, branch, button) {
  const userId = document.querySelector('#user')?.value || '';
  button.disabled = true;
  setStatus(`Merging ${branch}…`);
  const response = await fetch('/sandbox/merge', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId, messageTs: reply.ts }) });
  const result = await response.json().catch(() => ({}));
  if (result.ok) {
    setStatus(`${branch} ${result.alreadyMerged ? 'was already merged into' : 'is merged into'} ${result.into}; Medic sees it on its next look.`);
    return;
  }
  button.disabled = false;
  setStatus(`Could not merge ${branch}: ${result.detail || result.error || `HTTP ${response.status}`}`);
}

/** Adds the button to the last reply of `thread` that announces each fix branch (Medic's, not ephemeral). */
export function addMergeAction(thread, replies) {
  askAvailable();
  if (!available) return;
  const last = new Map();
  for (const reply of replies) {
    const match = reply.fromBot && !reply.ephemeral ? ANNOUNCED.exec(reply.text || '') : null;
    if (match) last.set(match[1], reply);
  }
  for (const [branch, reply] of last) {
    const node = [...thread.querySelectorAll('.reply')].find((n) => n.dataset.ts === reply.ts);
    if (!node) continue;
    const merged = replies.some((r) => !r.fromBot && String(r.text || '').startsWith(MERGED(branch)));
    const box = document.createElement('div');
    box.className = 'block actions merge-action';
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = merged ? `Merged ${branch}` : 'Merge fix branch';
    button.title = `Merge ${branch} into the default branch of the sandbox's local git remote, as a reviewer would merge the PR`;
    button.disabled = merged;
    button.addEventListener('click', () => void merge(reply, branch, button));
    box.append(button);
    node.append(box);
  }
}
