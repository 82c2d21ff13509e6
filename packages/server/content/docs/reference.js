/*
 * The service's own API-reference renderer, served at /docs/assets/api-reference.js when Scalar's
 * standalone bundle (@scalar/api-reference, dist/browser/standalone.js) is not installed. It offers
 * the same entry, `Scalar.createApiReference(selector, { url })`, loads the live OpenAPI document
 * and renders it as plain HTML: no network beyond the service, no dependency.
 */
(() => {
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return node;
  };
  const json = (v) => el('pre', {}, el('code', {}, JSON.stringify(v, null, 2)));
  const slug = (s) => String(s).replace(/[^A-Za-z0-9_.-]+/g, '-');

  const STYLE = `
    .svc-ref{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d2430;display:flex;min-height:100vh}
    .svc-ref nav{width:17rem;flex:none;border-right:1px solid #e3e7ee;padding:1rem;overflow:auto;max-height:100vh;position:sticky;top:0;font-size:.9rem}
    .svc-ref nav a{display:block;color:#2350c8;text-decoration:none;padding:.1rem 0}
    .svc-ref main{flex:1;padding:1.5rem 2rem;max-width:60rem}
    .svc-ref .op{border-top:1px solid #e3e7ee;padding:1rem 0}
    .svc-ref .method{display:inline-block;min-width:4.2rem;font-weight:600;font-family:ui-monospace,Menlo,monospace}
    .svc-ref .GET{color:#0b7a3e}.svc-ref .POST{color:#2350c8}.svc-ref .PATCH,.svc-ref .PUT{color:#a05a00}.svc-ref .DELETE{color:#b3261e}
    .svc-ref pre{background:#f4f6fa;padding:.6rem .8rem;overflow:auto;border-radius:6px;font-size:.8rem;max-height:24rem}
    .svc-ref table{border-collapse:collapse}.svc-ref td,.svc-ref th{border:1px solid #d8dde6;padding:.25rem .5rem;text-align:left;vertical-align:top;font-size:.85rem}
    .svc-ref details{margin:.4rem 0}.svc-ref .meta{color:#6b7385;font-size:.85rem}
    .svc-ref pre.desc{white-space:pre-wrap;background:none;padding:0;font-size:.9rem;max-height:none}
    .svc-ref input{width:100%;box-sizing:border-box;margin-bottom:.6rem;padding:.3rem}`;

  function operation(path, method, op) {
    const id = `op-${slug(op.operationId || `${method}-${path}`)}`;
    const params = (op.parameters || []).filter((p) => p && p.name);
    const body = op.requestBody?.content?.['application/json'];
    const meta = [
      op['x-svc-permission'] && `permission ${op['x-svc-permission']}`,
      op['x-svc-min-tier'] && `minimum tier ${op['x-svc-min-tier']}`,
      op.security && op.security.length === 0 ? 'no token' : undefined,
    ].filter(Boolean);
    return el(
      'section',
      { class: 'op', id },
      el('h3', {}, el('span', { class: `method ${method.toUpperCase()}` }, method.toUpperCase()), ' ', el('code', {}, path)),
      el('p', {}, el('strong', {}, op.summary || '')),
      meta.length ? el('p', { class: 'meta' }, meta.join(' · ')) : null,
      op.description ? el('p', {}, op.description) : null,
      params.length
        ? el(
            'table',
            {},
            el('tr', {}, el('th', {}, 'parameter'), el('th', {}, 'in'), el('th', {}, 'required'), el('th', {}, 'description')),
            params.map((p) => el('tr', {}, el('td', {}, el('code', {}, p.name)), el('td', {}, p.in), el('td', {}, p.required ? 'yes' : 'no'), el('td', {}, p.description || ''))),
          )
        : null,
      body ? el('details', {}, el('summary', {}, 'Request body'), json(body.examples?.example?.value ?? body.schema)) : null,
      el(
        'details',
        {},
        el('summary', {}, 'Responses'),
        Object.entries(op.responses || {}).map(([status, r]) =>
          el('div', {}, el('strong', {}, status), ' ', r.$ref ? r.$ref.split('/').pop() : r.description || '', r.content?.['application/json']?.examples?.example ? json(r.content['application/json'].examples.example.value) : null),
        ),
      ),
      (op['x-codeSamples'] || []).map((s) => el('details', {}, el('summary', {}, s.label || s.lang), el('pre', {}, el('code', {}, s.source)))),
    );
  }

  function render(root, doc) {
    const byTag = new Map();
    for (const [path, methods] of Object.entries(doc.paths || {})) {
      for (const [method, op] of Object.entries(methods)) {
        const tag = (op.tags && op.tags[0]) || 'other';
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag).push([path, method, op]);
      }
    }
    const filter = el('input', { type: 'search', placeholder: 'Filter operations' });
    const nav = el(
      'nav',
      {},
      el('a', { href: '/docs/guides' }, 'Guides'),
      el('a', { href: '/docs/errors' }, 'Errors'),
      el('hr'),
      filter,
      [...byTag.keys()].map((t) => el('a', { href: `#tag-${slug(t)}`, 'data-tag': t }, t)),
    );
    const tags = new Map((doc.tags || []).map((t) => [t.name, t.description]));
    const main = el(
      'main',
      {},
      el('h1', {}, doc.info?.title || 'API reference', ' ', el('small', { class: 'meta' }, doc.info?.version || '')),
      el('p', { class: 'meta' }, (doc.servers || []).map((s) => s.url).join(', ')),
      el('pre', { class: 'desc' }, doc.info?.description || ''),
      [...byTag.entries()].map(([tag, ops]) =>
        el('section', { id: `tag-${slug(tag)}`, 'data-tag': tag }, el('h2', {}, tag), tags.get(tag) ? el('p', {}, tags.get(tag)) : null, ops.map(([p, m, o]) => operation(p, m, o))),
      ),
    );
    filter.addEventListener('input', () => {
      const q = filter.value.toLowerCase();
      for (const op of main.querySelectorAll('.op')) op.style.display = !q || op.textContent.toLowerCase().includes(q) ? '' : 'none';
    });
    root.replaceChildren(el('style', {}, STYLE), el('div', { class: 'svc-ref' }, nav, main));
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }

  async function createApiReference(selector, config) {
    const root = typeof selector === 'string' ? document.querySelector(selector) : selector;
    if (!root) return;
    const cfg = Array.isArray(config) ? config[0] : config || {};
    root.textContent = 'Loading the API reference...';
    try {
      const doc = cfg.content ? (typeof cfg.content === 'string' ? JSON.parse(cfg.content) : cfg.content) : await (await fetch(cfg.url || '/v1/openapi.json')).json();
      render(root, doc);
    } catch (err) {
      root.textContent = `The OpenAPI document could not be loaded: ${err}`;
    }
  }

  window.Scalar = window.Scalar || { createApiReference };
})();
