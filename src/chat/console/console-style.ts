/**
 * The console's stylesheet: a calm chat client (channel list, message stream, command box), with
 * the message blocks of templates/render/html.ts styled for reading money: tabular figures,
 * amounts right-aligned. Served inline with the page under a CSP nonce; no external fonts.
 */
export const CONSOLE_CSS = `
:root {
  --bg: #f6f7f9; --panel: #ffffff; --ink: #1d2330; --muted: #667085; --line: #e4e7ec;
  --side: #1c2230; --side-ink: #c8cedb; --side-hover: #2a3142; --side-active: #3b5bdb;
  --accent: #3b5bdb; --accent-soft: #eef2ff; --danger: #c92a2a; --ok: #2b8a3e; --private: #fff8e6;
  --radius: 8px; --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { font: 14px/1.45 var(--font); color: var(--ink); background: var(--bg); }
.app { display: grid; grid-template-columns: 240px 1fr; grid-template-rows: 52px 1fr; height: 100vh; }
.topbar { grid-column: 1 / -1; display: flex; align-items: center; justify-content: space-between; padding: 0 18px;
  background: var(--side); color: #fff; border-bottom: 1px solid #111622; }
.brand { display: flex; align-items: center; gap: 10px; font-weight: 700; font-size: 16px; letter-spacing: .2px; }
.logo { display: inline-grid; place-items: center; width: 26px; height: 26px; border-radius: 6px; background: var(--accent); color: #fff; font-size: 14px; }
.brand .sub { font-weight: 400; color: var(--side-ink); font-size: 13px; }
.actas { display: flex; align-items: center; gap: 8px; color: var(--side-ink); font-size: 13px; }
.actas select { font: inherit; color: var(--ink); background: #fff; border: 0; border-radius: 6px; padding: 5px 8px; min-width: 300px; }
.sidebar { background: var(--side); color: var(--side-ink); padding: 14px 10px; overflow-y: auto; }
.sidebar h2 { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .6px; color: #8b93a7; margin: 8px 10px 6px; }
.sidebar ul { list-style: none; margin: 0 0 14px; padding: 0; }
.channel { display: flex; align-items: center; gap: 6px; padding: 5px 10px; border-radius: 6px; color: var(--side-ink); text-decoration: none; }
.channel:hover { background: var(--side-hover); color: #fff; }
.channel[aria-current="page"] { background: var(--side-active); color: #fff; }
.channel .hash { opacity: .7; width: 12px; }
.channel .unread { margin-left: auto; width: 8px; height: 8px; border-radius: 50%; background: #ff8787; }
.sidebar-foot { font-size: 12px; color: #8b93a7; margin: 18px 10px 0; }
.main { display: flex; flex-direction: column; min-width: 0; min-height: 0; background: var(--panel); }
.channel-head { padding: 12px 22px; border-bottom: 1px solid var(--line); display: flex; align-items: center; justify-content: space-between; gap: 12px; }
.channel-name { min-width: 0; }
.views { flex: none; display: inline-flex; border: 1px solid #cfd4dc; border-radius: 7px; overflow: hidden; }
.views button { font: inherit; font-size: 12px; font-weight: 600; border: 0; padding: 4px 10px; background: #fff; color: var(--muted); cursor: pointer; }
.views button[aria-pressed="true"] { background: var(--accent); color: #fff; }
.ac-card { max-width: 560px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; background: #fff; }
.ac-card img { max-width: 100%; height: auto; }
.ac-card .mention { color: var(--accent); }
.channel-head h1 { font-size: 17px; margin: 0; }
.channel-head p { margin: 2px 0 0; color: var(--muted); font-size: 13px; }
.stream { flex: 1; overflow-y: auto; padding: 10px 22px 18px; }
.msg { display: flex; gap: 12px; padding: 10px 8px; border-radius: var(--radius); }
.msg:hover { background: #fafbfc; }
.msg-private { background: var(--private); }
.msg-private:hover { background: var(--private); }
.avatar { flex: none; width: 36px; height: 36px; border-radius: 8px; display: grid; place-items: center; font-weight: 700; color: #fff; background: var(--accent); }
.msg-user .avatar { background: #7048e8; }
.msg-main { flex: 1; min-width: 0; }
.msg-meta { display: flex; align-items: baseline; gap: 8px; margin-bottom: 2px; }
.msg-author { font-weight: 700; }
.badge { font-size: 10px; font-weight: 600; text-transform: uppercase; color: var(--muted); background: #eef0f3; border-radius: 3px; padding: 0 4px; }
.msg-meta time, .edited { color: var(--muted); font-size: 12px; }
.private-note { color: #946200; font-size: 12px; }
.thread { margin: 10px 0 2px; padding-left: 14px; border-left: 3px solid var(--line); }
.thread .msg { padding: 8px 6px; }
.thread .avatar { width: 28px; height: 28px; font-size: 12px; }
.thread-count { margin: 0 0 2px; color: var(--accent); font-size: 12px; font-weight: 600; }
.msg-content > * { margin: 6px 0; }
.msg-content > :first-child { margin-top: 0; }
.b-header { font-size: 15px; font-weight: 700; margin: 2px 0 6px; }
.b-text { white-space: pre-line; overflow-wrap: anywhere; }
.b-context { color: var(--muted); font-size: 12px; white-space: pre-line; overflow-wrap: anywhere; }
.b-divider { border: 0; border-top: 1px solid var(--line); }
.b-facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 6px 18px; }
.fact dt { color: var(--muted); font-size: 12px; }
.fact dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.b-table { overflow-x: auto; max-width: 760px; }
.b-table table { border-collapse: collapse; width: 100%; font-size: 13px; }
.b-table th { text-align: left; font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); padding: 4px 10px 4px 0; }
.b-table td { border-bottom: 1px solid #f0f2f5; padding: 4px 10px 4px 0; overflow-wrap: anywhere; }
.b-table .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; padding-left: 14px; }
.b-chart { margin: 8px 0; max-width: 560px; }
.b-chart figcaption { font-weight: 600; margin-bottom: 4px; }
.b-image { margin: 8px 0; }
.b-image img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line, #ddd); border-radius: 4px; }
.bar-row { display: grid; grid-template-columns: minmax(90px, 200px) 1fr 72px; align-items: center; gap: 10px; font-size: 13px; }
.bar-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar { width: 100%; height: 10px; background: #f0f2f5; border-radius: 3px; }
.bar rect { fill: var(--accent); }
.bar-value { text-align: right; font-variant-numeric: tabular-nums; }
.b-actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.b-select { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-left: 8px; }
.btn { font: inherit; font-size: 13px; font-weight: 600; padding: 5px 12px; border-radius: 6px; border: 1px solid #cfd4dc; background: #fff; color: var(--ink); cursor: pointer; }
.btn:hover { background: #f5f6f8; }
.btn-primary { background: var(--ok); border-color: var(--ok); color: #fff; }
.btn-primary:hover { background: #237032; }
.btn-danger { background: #fff; border-color: var(--danger); color: var(--danger); }
.btn[disabled] { opacity: .55; cursor: progress; }
.empty { margin: 40px auto; max-width: 460px; text-align: center; color: var(--muted); }
.empty-title { font-size: 16px; color: var(--ink); font-weight: 600; }
.composer { display: flex; align-items: center; gap: 8px; margin: 0 22px; padding: 8px 8px 8px 12px; border: 1px solid #cfd4dc; border-radius: 10px; }
.composer:focus-within { border-color: var(--accent); box-shadow: 0 0 0 3px var(--accent-soft); }
.composer .prefix { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--accent); font-weight: 600; }
.composer input { flex: 1; font: inherit; border: 0; outline: none; padding: 4px 0; background: transparent; }
.composer button { font: inherit; font-weight: 600; border: 0; border-radius: 6px; padding: 6px 14px; background: var(--accent); color: #fff; cursor: pointer; }
.status { min-height: 20px; margin: 4px 22px 10px; font-size: 12px; color: var(--muted); }
.status.error { color: var(--danger); }
dialog { border: 0; border-radius: 10px; padding: 20px 22px; max-width: 420px; box-shadow: 0 20px 50px rgba(16, 24, 40, .25); }
dialog::backdrop { background: rgba(16, 24, 40, .35); }
dialog h2 { font-size: 16px; margin: 0 0 8px; }
dialog menu { display: flex; justify-content: flex-end; gap: 8px; padding: 0; margin: 18px 0 0; }
@media (max-width: 760px) {
  .app { grid-template-columns: 1fr; grid-template-rows: 48px 1fr; }
  .sidebar { display: none; }
  .topbar { padding: 0 10px; gap: 8px; }
  .brand { flex: none; font-size: 15px; }
  .brand .sub { display: none; }
  .actas { min-width: 0; font-size: 0; }
  .actas select { min-width: 0; max-width: 62vw; font-size: 13px; }
  .channel-head { padding: 8px 12px; }
  .channel-head h1 { font-size: 15px; }
  .channel-head p { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .stream { padding: 6px 8px 12px; }
  .msg { gap: 8px; padding: 8px 2px; }
  .avatar { width: 28px; height: 28px; font-size: 12px; }
  .thread { padding-left: 8px; }
  .thread .avatar { display: none; }
  .b-facts { grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 4px 12px; }
  .bar-row { grid-template-columns: minmax(60px, 110px) 1fr 64px; gap: 6px; }
  .composer { margin: 0 8px; }
  .status { margin: 4px 8px 8px; }
}
/* A table on a phone: each row a small card of label–value pairs, so nothing runs off the screen. */
@media (max-width: 480px) {
  .b-table table, .b-table tbody, .b-table tr, .b-table td { display: block; width: 100%; }
  .b-table thead { display: none; }
  .b-table tr { padding: 6px 0; border-bottom: 1px solid var(--line); }
  .b-table td { display: flex; justify-content: space-between; gap: 12px; border: 0; padding: 1px 0; text-align: right; white-space: normal; }
  .b-table td::before { content: attr(data-label); flex: none; max-width: 45%; overflow-wrap: normal; color: var(--muted); text-align: left; font-weight: 400; }
  .b-table td:first-child { font-weight: 600; }
  .b-table .num { padding-left: 0; white-space: normal; }
  .b-table td > * , .b-table td { overflow-wrap: anywhere; }
}
`;
