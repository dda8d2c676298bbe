// The view's side of MCP Apps (io.modelcontextprotocol/ui, specification 2026-01-26): JSON-RPC
// 2.0 with the host over postMessage. The view asks `ui/initialize`, says
// `ui/notifications/initialized`, then hears the tool's input and result as notifications and
// may call tools through the host (`tools/call`); it tells the host its size as it changes.
//
// Written here rather than bundling @modelcontextprotocol/ext-apps's App, which brings the MCP
// SDK and zod with it: the view is sent whole in every resources/read, and that made it 757 KB.
// The tests run this against the ext-apps AppBridge (tests/interop/mcp_apps.test.mjs).

export const PROTOCOL_VERSION = '2026-01-26';

export class HostLink {
  /** `appInfo`: {name, version}. Handlers are set as properties before connect(). */
  constructor(appInfo) {
    this.appInfo = appInfo;
    this.hostContext = {};
    this.ontoolinput = () => {};
    this.ontoolresult = () => {};
    this.ontoolcancelled = () => {};
    this.onhostcontextchanged = () => {};
    this.pending = new Map();
    this.nextId = 1;
    this.lastSize = '';
  }

  /** Performs the handshake; resolves with the host's answer to ui/initialize. */
  async connect() {
    window.addEventListener('message', (event) => this.receive(event));
    const answer = await this.request('ui/initialize', {
      appInfo: this.appInfo,
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: PROTOCOL_VERSION,
    });
    this.hostContext = answer?.hostContext ?? {};
    this.notify('ui/notifications/initialized', {});
    this.reportSize();
    new ResizeObserver(() => this.reportSize()).observe(document.documentElement);
    return answer;
  }

  /** A tool of the server, called through the host with the user's connection. */
  callServerTool({ name, arguments: args }) {
    return this.request('tools/call', { name, arguments: args ?? {} });
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  send(message) {
    window.parent.postMessage(message, '*');
  }

  receive(event) {
    // Only the host (the parent window) speaks to the view.
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) return this.settle(message);
    if (message.id !== undefined) return this.answer(message);
    this.hear(message.method, message.params ?? {});
  }

  // The answer to one of our requests.
  settle({ id, result, error }) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    if (error) waiting.reject(Object.assign(new Error(error.message ?? 'The host refused.'), { code: error.code }));
    else waiting.resolve(result);
  }

  // A request of the host's: ping and teardown are answered; nothing else is offered.
  answer({ id, method }) {
    if (method === 'ping' || method === 'ui/resource-teardown') {
      this.send({ jsonrpc: '2.0', id, result: {} });
    } else {
      this.send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  }

  hear(method, params) {
    if (method === 'ui/notifications/tool-input') this.ontoolinput(params);
    else if (method === 'ui/notifications/tool-result') this.ontoolresult(params);
    else if (method === 'ui/notifications/tool-cancelled') this.ontoolcancelled(params);
    else if (method === 'ui/notifications/host-context-changed') {
      this.hostContext = { ...this.hostContext, ...params };
      this.onhostcontextchanged(this.hostContext);
    }
  }

  reportSize() {
    const root = document.documentElement;
    const size = { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key === this.lastSize) return;
    this.lastSize = key;
    this.notify('ui/notifications/size-changed', size);
  }
}
