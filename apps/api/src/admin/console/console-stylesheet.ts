/**
 * The console's one stylesheet, served from the admin listener itself (no CDN, no web font): system
 * fonts, readable from a phone to a laptop, visible focus for keyboard use, and status never told by
 * colour alone.
 */
export const CONSOLE_STYLESHEET = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; --accent: #0550ae;
  --ok: #116329; --bad: #a40e26; --wait: #7d4e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 10; }
.banner { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
  background: var(--bg); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--ink); }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; list-style: none; }
.who { margin-left: auto; display: flex; gap: .5rem; align-items: center; color: var(--muted); }
main { padding: 1rem; max-width: 75rem; margin: 0 auto; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; word-break: break-all; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; }
footer { padding: 1rem; color: var(--muted); font-size: .875rem; border-top: 1px solid var(--line); }
input, select, textarea, button { font: inherit; }
input, select, textarea { padding: .45rem .6rem; border: 1px solid #8c959f; border-radius: 6px; max-width: 100%; }
button { padding: .45rem .9rem; border-radius: 6px; border: 1px solid #1f6feb; background: #1f6feb; color: #fff; cursor: pointer; }
button:disabled { background: #eaeef2; border-color: var(--line); color: var(--muted); cursor: not-allowed; }
button.link { background: none; border: 0; color: var(--accent); text-decoration: underline; padding: 0; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.search input { flex: 1 1 18rem; }
.search label { display: block; font-weight: 600; margin-bottom: .25rem; }
.hint, .empty { color: var(--muted); }
.stack { display: grid; gap: .4rem; max-width: 36rem; }
.stack label { font-weight: 600; margin-top: .4rem; }
.stack fieldset label { font-weight: 400; display: block; }
.narrow { max-width: 22rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
.error { color: var(--bad); font-weight: 600; }
.message { font-size: 1.05rem; }
.secret { font-size: 1.1rem; word-break: break-all; background: var(--bg); padding: .25rem .5rem; }
.fingerprint { font-size: 2rem; letter-spacing: .15em; font-family: ui-monospace, monospace; }
.codes { columns: 2; font-family: ui-monospace, monospace; font-size: 1.1rem; }
.setup-banner { margin: 0; padding: .6rem 1rem; background: #fff4d6; border-bottom: 2px solid #b97d00; color: #4a3200; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; word-break: break-word; }
@media (max-width: 40rem) { .facts { grid-template-columns: 1fr; } .facts dd { margin-bottom: .4rem; } }
.actions { display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; margin-top: .75rem; }
.action { display: flex; flex-direction: column; gap: .2rem; max-width: 22rem; }
.why { font-size: .85rem; color: var(--muted); }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 1rem; font-size: .85rem; font-weight: 600; border: 1px solid; }
.badge-success, .badge-active, .badge-delivered { color: var(--ok); }
.badge-failed, .badge-suspended { color: var(--bad); }
.badge-pending { color: var(--wait); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
td code { font-size: .8rem; word-break: break-all; }
.timeline { list-style: none; padding: 0; margin: 0; border-left: 3px solid var(--line); }
.timeline li { padding: .25rem 0 .75rem 1rem; position: relative; }
.timeline li::before { content: ""; position: absolute; left: -.5rem; top: .6rem; width: .7rem; height: .7rem;
  border-radius: 50%; background: var(--muted); }
.timeline .t-rail::before { background: var(--accent); }
.timeline .t-ledger::before { background: var(--ok); }
.timeline .t-operator::before { background: var(--bad); }
.timeline p { margin: 0; }
.when { color: var(--muted); font-size: .85rem; }
.rel { margin-left: .5rem; }
.kind { display: inline-block; min-width: 4.5rem; font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.detail { color: var(--muted); font-size: .9rem; word-break: break-word; }
.raw { margin: .25rem 0 0; padding: .4rem; background: var(--bg); font-size: .8rem; white-space: pre-wrap; word-break: break-all; }
.chart { margin: 1rem 0 1.5rem; }
.chart figcaption { font-weight: 600; margin-bottom: .25rem; }
.chart > svg { display: block; width: 100%; max-width: 56rem; height: auto; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; margin: .25rem 0 .5rem; padding: 0; list-style: none; font-size: .9rem; }
`;
