// Setup: brands (list/create/update/delete_ai_brand), prompts (one at a time or pasted one per
// line: create_ai_prompts), engines (the API key is write-only: after saving only "•••• <hint>"
// and "Replace key" remain) and the schedule, repetitions, budgets and judge
// (get/update_ai_visibility_settings). Without aivisibility.manage everything is read-only.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, ConfirmDialog, Dialog, ErrorNotice, Field, Loading, Notice, Section, SelectField, Switch, Table, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { useOperation } from '../data.js';
import { formatNumber } from '../format.js';

const list = (text) => text.split(',').map((item) => item.trim()).filter(Boolean);
const providers = [
  { value: 'openai', label: 'OpenAI-compatible (Chat Completions)' },
  { value: 'anthropic', label: 'Anthropic (Messages)' },
  { value: 'perplexity', label: 'Perplexity' },
];
const providerLabel = (value) => ({ openai: 'OpenAI-compatible', anthropic: 'Anthropic', perplexity: 'Perplexity' })[value] ?? value;

export function SetupTab({ scope, config, reloadConfig, canManage }) {
  return html`<div class="setup-sections">
    ${!canManage && html`<${Notice} kind="info">Your role can read this setup but not change it (that needs the aivisibility.manage permission).<//>`}
    <${BrandsSection} scope=${scope} config=${config} canManage=${canManage} reloadConfig=${reloadConfig} />
    <${PromptsSection} scope=${scope} config=${config} canManage=${canManage} reloadConfig=${reloadConfig} />
    <${EnginesSection} scope=${scope} config=${config} canManage=${canManage} reloadConfig=${reloadConfig} />
    <${SettingsSection} scope=${scope} config=${config} canManage=${canManage} reloadConfig=${reloadConfig} />
  </div>`;
}

function BrandsSection({ scope, config, reloadConfig, canManage }) {
  const [editing, setEditing] = useState(null); // null, 'new' or a brand
  const [deleting, setDeleting] = useState(null);
  const columns = [
    { key: 'name', label: 'Brand', render: (brand) => html`${brand.name}${brand.own ? html` <span class="badge badge-own">yours</span>` : ''}` },
    { key: 'aliases', label: 'Aliases', render: (brand) => brand.aliases.join(', ') || '—' },
    { key: 'domains', label: 'Domains', render: (brand) => brand.domains.join(', ') || '—' },
    ...(canManage ? [{ key: 'actions', label: 'Actions', render: (brand) => html`<div class="row">
      <${Button} class="btn-small" onClick=${() => setEditing(brand)}>Edit<span class="visually-hidden"> ${brand.name}</span><//>
      <${Button} class="btn-small" onClick=${() => setDeleting(brand)}>Delete<span class="visually-hidden"> ${brand.name}</span><//>
    </div>` }] : []),
  ];
  return html`<${Section} title="Brands" description="Your brand and the competitors to compare it with. Mentions are found by name and aliases (any case, whole words); citations of a brand's domains count for it."
      actions=${canManage && html`<${Button} kind="primary" onClick=${() => setEditing('new')}>Add brand<//>`}>
    <${Table} caption="Tracked brands" columns=${columns} rows=${config.brands} rowKey=${(brand) => brand.id} empty="No brands yet." />
    <${BrandDialog} scope=${scope} brand=${editing} onClose=${() => setEditing(null)} onSaved=${() => reloadConfig()} />
    <${ConfirmDialog} open=${Boolean(deleting)} title="Delete brand?" confirmLabel="Delete"
      message=${deleting && `“${deleting.name}” is no longer tracked; its past mentions leave the reports.`}
      onConfirm=${async () => { await api.call('delete_ai_brand', { ...scope, brandId: deleting.id }); await reloadConfig(); }} onClose=${() => setDeleting(null)} />
  <//>`;
}

function BrandDialog({ scope, brand, onClose, onSaved }) {
  const open = brand !== null;
  const [form, setForm] = useState({ name: '', aliases: '', domains: '', own: false });
  useEffect(() => {
    if (brand === 'new') setForm({ name: '', aliases: '', domains: '', own: false });
    else if (brand) setForm({ name: brand.name, aliases: brand.aliases.join(', '), domains: brand.domains.join(', '), own: brand.own });
  }, [brand]);
  const { run, busy, error, setError } = useAction(async (event) => {
    event.preventDefault();
    const body = { name: form.name.trim(), aliases: list(form.aliases), domains: list(form.domains), own: form.own };
    if (brand === 'new') await api.call('create_ai_brand', { ...scope, ...body });
    else await api.call('update_ai_brand', { ...scope, brandId: brand.id, ...body });
    await onSaved();
    onClose();
  });
  const close = () => { setError(null); onClose(); };
  const set = (key) => (event) => setForm({ ...form, [key]: event.currentTarget.value });
  return html`<${Dialog} open=${open} title=${brand === 'new' ? 'Add brand' : 'Edit brand'} onClose=${close}>
    <form class="stack" onSubmit=${run}>
      <${Field} label="Name" required maxlength="200" value=${form.name} onInput=${set('name')} />
      <${Field} label="Aliases" hint="Other names, separated by commas (e.g. Acme, ACME Inc.)." value=${form.aliases} onInput=${set('aliases')} />
      <${Field} label="Domains" hint="Separated by commas (e.g. acme.com, docs.acme.com); subdomains count too." value=${form.domains} onInput=${set('domains')} />
      <${Switch} label="This is your brand" description="Citations of your domains count as owned; gaps are prompts where competitors appear and this brand does not."
        checked=${form.own} onChange=${(checked) => setForm({ ...form, own: checked })} />
      <${ErrorNotice} error=${error} />
      <div class="dialog-actions"><${Button} onClick=${close}>Cancel<//><${Button} kind="primary" type="submit" busy=${busy}>Save brand<//></div>
    </form>
  <//>`;
}

function PromptsSection({ scope, config, reloadConfig, canManage }) {
  const [adding, setAdding] = useState(false);
  const [bulk, setBulk] = useState(false);
  const [deleting, setDeleting] = useState(null);
  const [toggleError, setToggleError] = useState(null);
  const toggle = async (prompt, activeNow) => {
    setToggleError(null);
    try {
      await api.call('update_ai_prompt', { ...scope, promptId: prompt.id, active: activeNow });
      await reloadConfig();
    } catch (error) { setToggleError(error); }
  };
  const columns = [
    { key: 'text', label: 'Prompt', render: (prompt) => html`<span class="prompt-text">${prompt.text}</span>` },
    { key: 'topic', label: 'Topic', render: (prompt) => prompt.topic || '—' },
    { key: 'tags', label: 'Tags', render: (prompt) => prompt.tags.join(', ') || '—' },
    { key: 'locale', label: 'Language, country', render: (prompt) => [prompt.language, prompt.country].filter(Boolean).join(', ') || '—' },
    { key: 'active', label: 'Asked', render: (prompt) => (canManage
      ? html`<input type="checkbox" role="switch" checked=${prompt.active} aria-label=${`Ask “${prompt.text}”`}
          onChange=${(event) => toggle(prompt, event.currentTarget.checked)} />`
      : prompt.active ? 'yes' : 'no') },
    ...(canManage ? [{ key: 'actions', label: 'Actions', render: (prompt) => html`<${Button} class="btn-small" onClick=${() => setDeleting(prompt)}>Delete<span class="visually-hidden"> “${prompt.text}”</span><//>` }] : []),
  ];
  return html`<${Section} title="Prompts" description="The questions asked, as a user would ask them. Inactive prompts are kept but not asked."
      actions=${canManage && html`<${Button} kind="primary" onClick=${() => setAdding(true)}>Add prompt<//><${Button} onClick=${() => setBulk(true)}>Paste prompts<//>`}>
    <${ErrorNotice} error=${toggleError} />
    <${Table} caption="Tracked prompts" columns=${columns} rows=${config.prompts} rowKey=${(prompt) => prompt.id} empty="No prompts yet." />
    <${PromptDialog} open=${adding} scope=${scope} onClose=${() => setAdding(false)} onSaved=${() => reloadConfig()} />
    <${BulkPromptDialog} open=${bulk} scope=${scope} onClose=${() => setBulk(false)} onSaved=${() => reloadConfig()} />
    <${ConfirmDialog} open=${Boolean(deleting)} title="Delete prompt?" confirmLabel="Delete"
      message=${deleting && `“${deleting.text}” is no longer asked and its answers leave the reports.`}
      onConfirm=${async () => { await api.call('delete_ai_prompt', { ...scope, promptId: deleting.id }); await reloadConfig(); }} onClose=${() => setDeleting(null)} />
  <//>`;
}

function PromptDialog({ open, scope, onClose, onSaved }) {
  const empty = { text: '', topic: '', tags: '', language: '', country: '' };
  const [form, setForm] = useState(empty);
  const { run, busy, error, setError } = useAction(async (event) => {
    event.preventDefault();
    const body = { text: form.text.trim(), topic: form.topic.trim(), tags: list(form.tags) };
    if (form.language.trim()) body.language = form.language.trim();
    if (form.country.trim()) body.country = form.country.trim().toUpperCase();
    await api.call('create_ai_prompt', { ...scope, ...body });
    await onSaved();
    setForm(empty);
    onClose();
  });
  const close = () => { setError(null); setForm(empty); onClose(); };
  const set = (key) => (event) => setForm({ ...form, [key]: event.currentTarget.value });
  return html`<${Dialog} open=${open} title="Add prompt" onClose=${close}>
    <form class="stack" onSubmit=${run}>
      <${Field} label="Prompt" required maxlength="4000" value=${form.text} onInput=${set('text')} hint="E.g. “What is the best privacy-friendly web analytics tool?”" />
      <${Field} label="Topic" maxlength="100" value=${form.topic} onInput=${set('topic')} hint="Groups prompts in the report." />
      <${Field} label="Tags" value=${form.tags} onInput=${set('tags')} hint="Separated by commas." />
      <div class="grid-2">
        <${Field} label="Language" maxlength="35" value=${form.language} onInput=${set('language')} hint="BCP 47, e.g. en or de-AT." />
        <${Field} label="Country" maxlength="2" value=${form.country} onInput=${set('country')} hint="Two letters, e.g. US." />
      </div>
      <${ErrorNotice} error=${error} />
      <div class="dialog-actions"><${Button} onClick=${close}>Cancel<//><${Button} kind="primary" type="submit" busy=${busy}>Add prompt<//></div>
    </form>
  <//>`;
}

function BulkPromptDialog({ open, scope, onClose, onSaved }) {
  const [text, setText] = useState('');
  const [topic, setTopic] = useState('');
  const lines = [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))];
  const { run, busy, error, setError } = useAction(async (event) => {
    event.preventDefault();
    const body = { prompts: lines.map((line) => ({ text: line, topic: topic.trim() })) };
    await api.call('create_ai_prompts', { ...scope, ...body });
    await onSaved();
    setText('');
    setTopic('');
    onClose();
  });
  const close = () => { setError(null); onClose(); };
  return html`<${Dialog} open=${open} title="Paste prompts" onClose=${close}>
    <form class="stack" onSubmit=${run}>
      <${Field} label="Prompts, one per line" hint=${`Up to 500 at once; blank lines and repeats are left out. ${formatNumber(lines.length)} prompt${lines.length === 1 ? '' : 's'}.`}>
        ${({ id, describedBy }) => html`<textarea id=${id} aria-describedby=${describedBy} rows="8" required value=${text} onInput=${(event) => setText(event.currentTarget.value)}></textarea>`}
      <//>
      <${Field} label="Topic for all of them" maxlength="100" value=${topic} onInput=${(event) => setTopic(event.currentTarget.value)} />
      <${ErrorNotice} error=${error ?? (lines.length > 500 ? 'At most 500 prompts at once.' : null)} />
      <div class="dialog-actions"><${Button} onClick=${close}>Cancel<//>
        <${Button} kind="primary" type="submit" busy=${busy} disabled=${lines.length === 0 || lines.length > 500}>Add ${formatNumber(lines.length)} prompt${lines.length === 1 ? '' : 's'}<//></div>
    </form>
  <//>`;
}

function EnginesSection({ scope, config, reloadConfig, canManage }) {
  const [editing, setEditing] = useState(null);
  const [replacing, setReplacing] = useState(null);
  const [deleting, setDeleting] = useState(null);
  const columns = [
    { key: 'name', label: 'Engine', render: (engine) => html`${engine.name}${engine.active ? '' : html` <span class="badge">paused</span>`}` },
    { key: 'provider', label: 'Provider', render: (engine) => providerLabel(engine.provider) },
    { key: 'model', label: 'Model', render: (engine) => html`<code>${engine.model}</code>${engine.webSearch ? html` <span class="badge">web search</span>` : ''}` },
    { key: 'baseUrl', label: 'Base URL', render: (engine) => (engine.baseUrl ? html`<code class="break">${engine.baseUrl}</code>` : 'The vendor’s API') },
    { key: 'key', label: 'API key', render: (engine) => (engine.hasApiKey
      ? html`<span class="mono" data-key-hint=${engine.id}><span aria-hidden="true">•••• </span><span class="visually-hidden">ends in </span>${engine.apiKeyHint}</span>`
      : html`<span class="muted">none</span>`) },
    { key: 'prices', label: 'Price per 1M tokens', render: (engine) => `$${formatNumber(Number(engine.inputPrice ?? 0))} in, $${formatNumber(Number(engine.outputPrice ?? 0))} out` },
    ...(canManage ? [{ key: 'actions', label: 'Actions', render: (engine) => html`<div class="row">
      <${Button} class="btn-small" onClick=${() => setEditing(engine)}>Edit<span class="visually-hidden"> ${engine.name}</span><//>
      <${Button} class="btn-small" onClick=${() => setReplacing(engine)}>Replace key<span class="visually-hidden"> of ${engine.name}</span><//>
      <${Button} class="btn-small" onClick=${() => setDeleting(engine)}>Delete<span class="visually-hidden"> ${engine.name}</span><//>
    </div>` }] : []),
  ];
  return html`<${Section} title="Engines" description="The AI models asked. API keys are stored encrypted and never shown again; only their last characters are."
      actions=${canManage && html`<${Button} kind="primary" onClick=${() => setEditing('new')}>Add engine<//>`}>
    <${Table} caption="Configured engines" columns=${columns} rows=${config.engines} rowKey=${(engine) => engine.id} empty="No engines yet." />
    <${EngineDialog} scope=${scope} engine=${editing} onClose=${() => setEditing(null)} onSaved=${() => reloadConfig()} />
    <${KeyDialog} scope=${scope} engine=${replacing} onClose=${() => setReplacing(null)} onSaved=${() => reloadConfig()} />
    <${ConfirmDialog} open=${Boolean(deleting)} title="Delete engine?" confirmLabel="Delete"
      message=${deleting && `“${deleting.name}” is no longer asked, and its stored API key is erased.`}
      onConfirm=${async () => { await api.call('delete_ai_engine', { ...scope, engineId: deleting.id }); await reloadConfig(); }} onClose=${() => setDeleting(null)} />
  <//>`;
}

function EngineDialog({ scope, engine, onClose, onSaved }) {
  const isNew = engine === 'new';
  const blank = { provider: 'openai', model: '', name: '', baseUrl: '', apiKey: '', webSearch: false, inputPrice: '', outputPrice: '', active: true, params: '' };
  const [form, setForm] = useState(blank);
  const [paramsError, setParamsError] = useState(null);
  useEffect(() => {
    if (isNew) setForm(blank);
    else if (engine) {
      setForm({ provider: engine.provider, model: engine.model, name: engine.name, baseUrl: engine.baseUrl ?? '', apiKey: '', webSearch: engine.webSearch,
        inputPrice: String(Number(engine.inputPrice ?? 0)), outputPrice: String(Number(engine.outputPrice ?? 0)), active: engine.active,
        params: Object.keys(engine.params ?? {}).length ? JSON.stringify(engine.params) : '' });
    }
  }, [engine]);
  const { run, busy, error, setError } = useAction(async (event) => {
    event.preventDefault();
    setParamsError(null);
    let params = {};
    if (form.params.trim()) {
      try { params = JSON.parse(form.params); } catch { setParamsError('Not valid JSON.'); return; }
    }
    const body = { provider: form.provider, model: form.model.trim(), baseUrl: form.baseUrl.trim(), webSearch: form.webSearch, active: form.active, params };
    if (form.name.trim()) body.name = form.name.trim();
    if (form.inputPrice !== '') body.inputPrice = Number(form.inputPrice);
    if (form.outputPrice !== '') body.outputPrice = Number(form.outputPrice);
    if (isNew && form.apiKey) body.apiKey = form.apiKey;
    if (isNew) await api.call('create_ai_engine', { ...scope, ...body });
    else await api.call('update_ai_engine', { ...scope, engineId: engine.id, ...body });
    // The key leaves the page once it is saved.
    setForm(blank);
    await onSaved();
    onClose();
  });
  const close = () => { setError(null); setParamsError(null); setForm(blank); onClose(); };
  const set = (key) => (event) => setForm({ ...form, [key]: event.currentTarget.value });
  return html`<${Dialog} open=${engine !== null} title=${isNew ? 'Add engine' : 'Edit engine'} onClose=${close}>
    <form class="stack" onSubmit=${run} autocomplete="off">
      <${SelectField} label="Provider" value=${form.provider} options=${providers} onChange=${(value) => setForm({ ...form, provider: value })} />
      <${Field} label="Model" required maxlength="200" value=${form.model} onInput=${set('model')} hint="E.g. gpt-4o-mini, claude-sonnet-4-5, sonar." />
      <${Field} label="Name" maxlength="100" value=${form.name} onInput=${set('name')} hint="Shown in the reports; default: provider and model." />
      <${Field} label="Base URL" type="url" maxlength="500" value=${form.baseUrl} onInput=${set('baseUrl')} hint="Empty: the vendor’s API. For a compatible server, e.g. https://llm.example.com/v1." />
      ${isNew && html`<${Field} label="API key" type="password" autocomplete="new-password" spellcheck="false" maxlength="1000" value=${form.apiKey} onInput=${set('apiKey')}
        hint="Stored encrypted and never shown again." />`}
      <${Switch} label="Web search" description="Ask with the provider’s web search (Perplexity always searches)." checked=${form.webSearch} onChange=${(checked) => setForm({ ...form, webSearch: checked })} />
      <${Switch} label="Active" description="Inactive engines are not asked." checked=${form.active} onChange=${(checked) => setForm({ ...form, active: checked })} />
      <div class="grid-2">
        <${Field} label="Input price (USD per 1M tokens)" type="number" min="0" max="10000" step="any" value=${form.inputPrice} onInput=${set('inputPrice')} />
        <${Field} label="Output price (USD per 1M tokens)" type="number" min="0" max="10000" step="any" value=${form.outputPrice} onInput=${set('outputPrice')} />
      </div>
      <${Field} label="Request parameters (JSON)" value=${form.params} onInput=${set('params')} error=${paramsError} hint="Merged into every request, e.g. {&quot;temperature&quot;: 0.7}." />
      <${ErrorNotice} error=${error} />
      <div class="dialog-actions"><${Button} onClick=${close}>Cancel<//><${Button} kind="primary" type="submit" busy=${busy}>Save engine<//></div>
    </form>
  <//>`;
}

/** Replaces (or removes) an engine's key: the old one is never shown. */
function KeyDialog({ scope, engine, onClose, onSaved }) {
  const [key, setKey] = useState('');
  const save = async (value) => {
    await api.call('update_ai_engine', { ...scope, engineId: engine.id, apiKey: value });
    setKey('');
    await onSaved();
    onClose();
  };
  const { run, busy, error, setError } = useAction(async (event) => { event.preventDefault(); await save(key); });
  const remove = useAction(() => save(''));
  const close = () => { setKey(''); setError(null); onClose(); };
  return html`<${Dialog} open=${engine !== null} title=${engine ? `Replace the API key of ${engine.name}` : 'Replace the API key'} onClose=${close}>
    <form class="stack" onSubmit=${run} autocomplete="off">
      ${engine?.hasApiKey && html`<p>The current key ends in <span class="mono">${engine.apiKeyHint}</span>. It cannot be shown.</p>`}
      <${Field} label="New API key" type="password" autocomplete="new-password" spellcheck="false" required maxlength="1000" value=${key}
        onInput=${(event) => setKey(event.currentTarget.value)} hint="Stored encrypted and never shown again." />
      <${ErrorNotice} error=${error ?? remove.error} />
      <div class="dialog-actions">
        ${engine?.hasApiKey && html`<${Button} kind="danger" busy=${remove.busy} onClick=${() => remove.run()}>Remove key<//>`}
        <${Button} onClick=${close}>Cancel<//><${Button} kind="primary" type="submit" busy=${busy}>Save key<//>
      </div>
    </form>
  <//>`;
}

function SettingsSection({ scope, config, canManage }) {
  const settings = useOperation('get_ai_visibility_settings', scope);
  const [form, setForm] = useState(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => { if (settings.data) setForm({ ...settings.data, judgeEngineId: settings.data.judgeEngineId ?? '' }); }, [settings.data]);
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    const body = { schedule: form.schedule, repetitions: Number(form.repetitions), maxRunsPerDay: Number(form.maxRunsPerDay),
      maxTokensPerDay: Number(form.maxTokensPerDay), judgeEngineId: form.judgeEngineId || null };
    settings.setData(await api.call('update_ai_visibility_settings', { ...scope, ...body }));
    setSaved(true);
  });
  const set = (key) => (value) => { setSaved(false); setForm({ ...form, [key]: value }); };
  return html`<${Section} title="Schedule and budgets" description="When runs start by themselves, how often each prompt is asked per engine, and the daily limits that stop a run.">
    <${ErrorNotice} error=${settings.error} />
    ${!form ? html`<${Loading} />` : html`<form class="stack narrow" onSubmit=${run}>
      <fieldset class="plain-fieldset" disabled=${!canManage}>
        <div class="stack">
          <${SelectField} label="Schedule" value=${form.schedule} onChange=${set('schedule')}
            options=${[{ value: 'off', label: 'Off (runs start only on demand)' }, { value: 'daily', label: 'Daily' }, { value: 'weekly', label: 'Weekly' }]} />
          <${Field} label="Repetitions" type="number" min="1" max="10" required value=${form.repetitions} onInput=${(event) => set('repetitions')(event.currentTarget.value)}
            hint="Each prompt is asked this many times per engine and run: answers vary, and one sample says little." />
          <${Field} label="Runs per day, at most" type="number" min="0" max="1000" required value=${form.maxRunsPerDay} onInput=${(event) => set('maxRunsPerDay')(event.currentTarget.value)} />
          <${Field} label="Tokens per day, at most" type="number" min="0" max="1000000000" required value=${form.maxTokensPerDay} onInput=${(event) => set('maxTokensPerDay')(event.currentTarget.value)}
            hint="A run stops when the project’s answers of the day have used this many tokens." />
          <${SelectField} label="Judge" value=${form.judgeEngineId} onChange=${set('judgeEngineId')}
            hint="An engine that rates sentiment and whether each mention is a recommendation. None: nothing is judged (deterministic)."
            options=${[{ value: '', label: 'None (deterministic)' }, ...config.engines.map((engine) => ({ value: engine.id, label: engine.name }))]} />
        </div>
      </fieldset>
      <${ErrorNotice} error=${error} />
      ${saved && html`<${Notice} kind="success">Settings saved.<//>`}
      ${canManage && html`<div class="row"><${Button} kind="primary" type="submit" busy=${busy}>Save settings<//></div>`}
    </form>`}
  <//>`;
}
