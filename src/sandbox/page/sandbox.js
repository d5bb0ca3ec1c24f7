/* global document, localStorage, fetch, setTimeout */
// Medic's local Slack sandbox page: renders the channel from the Block Kit JSON the sandbox holds
// and sends clicks, modal submissions and slash commands to the sandbox, which signs them and
// forwards them to Medic exactly as Slack would. Every node is built with textContent: untrusted
// text from a card can never become markup here.

import { addMergeAction } from './merge-action.js';

const $ = (selector) => document.querySelector(selector);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};
const decode = (text) => String(text).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

// Emoji get their own span in the shipped emoji font at its one weight: in bold headers and
// buttons the browser would otherwise look for a bold emoji face and draw empty boxes.
const EMOJI = /(\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*|[\u{1F1E6}-\u{1F1FF}]{2})/u;
function appendText(parent, text) {
  for (const piece of String(text).split(EMOJI)) {
    if (!piece) continue;
    if (EMOJI.test(piece)) parent.append(el('span', 'emoji', piece));
    else parent.append(document.createTextNode(piece));
  }
  return parent;
}

let users = [];
let userId = localStorage.getItem('medic-sandbox-user') || '';
let rendered = { version: -1, userId: '' };
let shownView = '';
let channelId = localStorage.getItem('medic-sandbox-channel') || '';

// Medic makes a formatting character inert by putting a zero-width space on each side (Slack only
// formats at word boundaries). Those pairs are swapped for private-use placeholders before parsing,
// so they can neither open nor close anything, and swapped back for display.
const INERT = /\u200b([*_~`])\u200b/g;
const PLACEHOLDER = { '*': '\ue001', _: '\ue002', '~': '\ue003', '`': '\ue004' };
const RESTORE = /[\ue001-\ue004]/g;
const restore = (text) => text.replace(RESTORE, (c) => ({ '\ue001': '*', '\ue002': '_', '\ue003': '~', '\ue004': '`' })[c]);
const show = (text) => decode(restore(text));
// Bold, italic and strike open after a boundary and close before one, as Slack's do.
const INLINE = /(<[^<>\n]+>|`[^`\n]+`|(?<![\w\ue001-\ue004])\*[^*\s](?:[^*\n]*[^*\s])?\*(?![\w\ue001-\ue004])|(?<![\w\ue001-\ue004])_[^_\s](?:[^_\n]*[^_\s])?_(?![\w\ue001-\ue004])|(?<![\w\ue001-\ue004])~[^~\s](?:[^~\n]*[^~\s])?~(?![\w\ue001-\ue004]))/;

/** Slack mrkdwn, the safe subset: code fences, `code`, *bold*, _italic_, ~strike~, <links|text>, <@mentions>. */
function renderMrkdwn(text, parent) {
  String(text).replace(INERT, (_m, c) => PLACEHOLDER[c]).split(/```/).forEach((part, index) => {
    if (index % 2 === 1) {
      parent.append(el('pre', 'code', show(part.replace(/^\n/, ''))));
      return;
    }
    renderInline(part, parent);
  });
}

function renderInline(text, parent) {
  for (const token of text.split(INLINE)) {
    if (!token) continue;
    const inner = token.slice(1, -1);
    if (token.startsWith('<') && token.endsWith('>')) parent.append(renderAngle(restore(inner)));
    else if (token.length > 2 && token.startsWith('`') && token.endsWith('`')) parent.append(el('code', '', show(inner)));
    else if (token.length > 2 && /^([*_~]).*\1$/s.test(token)) {
      const node = el(token[0] === '*' ? 'b' : token[0] === '_' ? 'i' : 's');
      renderInline(inner, node);
      parent.append(node);
    } else appendText(parent, show(token));
  }
}

function renderAngle(inner) {
  const [target, label] = inner.split('|');
  if (target.startsWith('@')) {
    const user = users.find((u) => u.id === target.slice(1));
    return el('span', 'mention', `@${user ? user.name : target.slice(1)}`);
  }
  if (target.startsWith('!')) return el('span', 'mention', `@${target.slice(1)}`);
  if (/^https?:\/\//.test(target)) {
    const a = el('a', '', decode(label || target));
    a.href = target;
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
    return a;
  }
  return document.createTextNode(decode(`<${inner}>`));
}

function renderText(textObject, parent) {
  if (!textObject) return;
  if (textObject.type === 'mrkdwn') renderMrkdwn(textObject.text, parent);
  else appendText(parent, decode(textObject.text));
}

function renderBlocks(blocks, message) {
  const box = el('div', 'blocks');
  for (const block of blocks) {
    const node = el('div', `block ${block.type}`);
    if (block.type === 'header') renderText(block.text, node);
    else if (block.type === 'section') {
      renderText(block.text, node);
      if (block.fields) {
        const grid = node.appendChild(el('div', 'fields'));
        for (const field of block.fields) renderText(field, grid.appendChild(el('div', 'field')));
      }
    } else if (block.type === 'context') for (const item of block.elements || []) renderText(item, node);
    else if (block.type === 'divider') node.append(el('hr'));
    else if (block.type === 'actions') {
      for (const element of block.elements || []) {
        if (element.type !== 'button') continue;
        const button = appendText(el('button', element.style || ''), element.text ? decode(element.text.text) : 'button');
        button.type = 'button';
        button.addEventListener('click', () => clickButton(message, block, element));
        node.append(button);
      }
    } else node.append(el('pre', 'code', JSON.stringify(block, null, 2)));
    box.append(node);
  }
  return box;
}

function renderMessage(message, className) {
  const node = el('div', className);
  node.dataset.ts = message.ts;
  const who = message.fromBot ? 'Medic' : 'user';
  node.append(el('div', 'meta', `${who} · ${new Date(Number(message.ts) * 1000).toLocaleTimeString()}${message.edited ? ' · edited' : ''}${message.ephemeral ? ' · Only visible to you' : ''}`));
  if (message.blocks && message.blocks.length > 0) node.append(renderBlocks(message.blocks, message));
  else if (message.text) renderMrkdwn(message.text, node.appendChild(el('div', 'block section')));
  for (const file of message.files || []) node.append(renderFile(file));
  return node;
}

// A shared file, as Slack shows one: a picture under its title, served by the sandbox itself.
function renderFile(file) {
  const box = el('figure', 'file');
  box.dataset.fileId = file.id;
  box.append(el('figcaption', 'file-title', file.title || file.name));
  if (file.available && String(file.mimetype || '').startsWith('image/')) {
    const img = document.createElement('img');
    img.src = file.url;
    img.alt = file.altText || file.title || file.name;
    img.loading = 'lazy';
    box.append(img);
  } else {
    box.append(el('div', 'file-missing', file.altText || file.name));
  }
  return box;
}

// One tab per channel when the service catalog routes cards to several; each shows its own cards.
function renderChannels(state) {
  const channels = state.channels || [state.channel];
  if (!channels.some((c) => c.id === channelId)) channelId = state.channel.id;
  const current = channels.find((c) => c.id === channelId) || state.channel;
  $('#channel-name').textContent = current.name;
  const nav = $('#channels');
  nav.replaceChildren();
  if (channels.length < 2) return current;
  for (const channel of channels) {
    const count = state.messages.filter((m) => m.channel === channel.id && !m.threadTs && !m.ephemeral).length;
    const tab = el('button', channel.id === current.id ? 'channel selected' : 'channel', `#${channel.name} (${count})`);
    tab.type = 'button';
    tab.addEventListener('click', () => {
      channelId = channel.id;
      localStorage.setItem('medic-sandbox-channel', channelId);
      render(state);
    });
    nav.append(tab);
  }
  return current;
}

function render(state) {
  const current = renderChannels(state);
  $('#command-name').textContent = state.command;
  const list = $('#messages');
  list.replaceChildren();
  const top = state.messages.filter((m) => !m.threadTs && (!m.channel || m.channel === current.id));
  if (top.length === 0) list.append(el('p', 'empty', 'No messages yet. Medic posts incident cards here.'));
  for (const message of top) {
    const node = renderMessage(message, `message${message.ephemeral ? ' ephemeral' : ''}`);
    const replies = state.messages.filter((m) => m.threadTs === message.ts);
    if (replies.length > 0) {
      const thread = el('div', 'thread');
      thread.append(el('div', 'meta', `${replies.length} repl${replies.length === 1 ? 'y' : 'ies'}`));
      for (const reply of replies) thread.append(renderMessage(reply, `reply${reply.ephemeral ? ' ephemeral' : ''}`));
      addMergeAction(thread, replies);
      node.append(thread);
    }
    list.append(node);
  }
  renderView(state.view);
}

function confirmWith(confirm) {
  const dialog = $('#confirm-dialog');
  dialog.querySelector('.title').textContent = confirm.title ? confirm.title.text : 'Are you sure?';
  const text = dialog.querySelector('.text');
  text.replaceChildren();
  renderText(confirm.text, text);
  const yes = dialog.querySelector('.confirm');
  const no = dialog.querySelector('.deny');
  yes.textContent = confirm.confirm ? confirm.confirm.text : 'Yes';
  no.textContent = confirm.deny ? confirm.deny.text : 'Cancel';
  return new Promise((resolve) => {
    const done = (answer) => { dialog.close(); yes.onclick = null; no.onclick = null; resolve(answer); };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    dialog.showModal();
  });
}

const ACTION_NOUNS = { click: 'Your click', submit: 'Your form', close: 'Closing the form', command: 'Your /medic command' };

// Words a newcomer reads, not HTTP codes: a 200 only means Medic took the action; its answer comes
// in the channel.
function deliveryNote(action, status) {
  const what = ACTION_NOUNS[action] || 'Your action';
  if (status >= 200 && status < 300) return `${what} reached Medic; its answer appears in the channel.`;
  return `${what} failed (HTTP ${status}); the terminal running Medic says why.`;
}

async function send(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId, ...body }) });
  const result = await response.json().catch(() => ({}));
  $('#status').textContent = deliveryNote(path.replace('/sandbox/', ''), result.status ?? response.status);
  void refresh();
  return result;
}

async function clickButton(message, block, element) {
  if (element.confirm && !(await confirmWith(element.confirm))) return;
  await send('/sandbox/click', { messageTs: message.ts, blockId: block.block_id, actionId: element.action_id });
}

function renderView(open) {
  const dialog = $('#view-dialog');
  if (!open) {
    if (dialog.open) dialog.close();
    shownView = '';
    return;
  }
  const key = `${open.id}:${JSON.stringify(open.errors)}`;
  if (shownView === key) return;
  shownView = key;
  const { view } = open;
  dialog.querySelector('.title').textContent = view.title ? view.title.text : '';
  const submit = dialog.querySelector('.submit');
  submit.textContent = view.submit ? view.submit.text : '';
  // A modal without a submit button (View details) only closes, as in Slack.
  submit.hidden = !view.submit;
  dialog.querySelector('.close').textContent = view.close ? view.close.text : 'Cancel';
  const blocks = dialog.querySelector('.blocks');
  const previous = Object.fromEntries([...blocks.querySelectorAll('textarea,input')].map((i) => [i.name, i.value]));
  blocks.replaceChildren();
  for (const block of view.blocks || []) {
    if (block.type !== 'input') { blocks.append(renderBlocks([block], {})); continue; }
    const label = el('label', 'block', block.label ? block.label.text : '');
    const input = el(block.element.multiline ? 'textarea' : 'input');
    input.name = `${block.block_id}/${block.element.action_id}`;
    input.value = previous[input.name] || '';
    label.append(el('br'), input);
    if (open.errors[block.block_id]) label.append(el('div', 'input-error', open.errors[block.block_id]));
    blocks.append(label);
  }
  dialog.querySelector('.close').onclick = () => { void send('/sandbox/close', { viewId: open.id }); };
  dialog.querySelector('#view-form').onsubmit = (event) => {
    event.preventDefault();
    const values = {};
    for (const input of blocks.querySelectorAll('textarea,input')) {
      const [blockId, actionId] = input.name.split('/');
      values[blockId] = { ...(values[blockId] || {}), [actionId]: input.value };
    }
    void send('/sandbox/submit', { viewId: open.id, values });
  };
  if (!dialog.open) dialog.showModal();
}

async function refresh() {
  const response = await fetch(`/sandbox/state?user=${encodeURIComponent(userId)}`);
  const state = await response.json();
  if (users.length === 0) {
    users = state.users;
    // No default: whoever approves says who they are.
    if (!users.some((u) => u.id === userId)) userId = '';
    const select = $('#user');
    const none = el('option', '', 'Choose who you are…');
    none.value = '';
    none.disabled = true;
    select.append(none);
    for (const user of users) {
      const option = el('option', '', user.label);
      option.value = user.id;
      select.append(option);
    }
    select.value = userId;
    select.addEventListener('change', () => {
      userId = select.value;
      localStorage.setItem('medic-sandbox-user', userId);
      void refresh();
    });
  }
  if (state.version === rendered.version && rendered.userId === userId) return;
  rendered = { version: state.version, userId };
  render(state);
}

$('#command-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#command-text');
  void send('/sandbox/command', { text: input.value });
  input.value = '';
});

// The merge buttons appear once the sandbox's local remote exists: render again when it does.
document.addEventListener('medic-merge-available', () => {
  rendered = { ...rendered, version: -1 };
});

async function poll() {
  try { await refresh(); } catch { $('#status').textContent = 'The sandbox is not answering.'; }
  setTimeout(poll, 700);
}
void poll();
