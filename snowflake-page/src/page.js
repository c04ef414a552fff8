(() => {
  // As you type, the page is rendered for the new values, in the page's language, and this
  // shows its new parts: the result, the errors, the worked example, the links to the
  // other languages. Served, the server renders the page; as static files, the module
  // (`data-module`) renders the same parts in the browser. Nothing about the format or its
  // words is here.
  const script = document.currentScript;
  const site = script.dataset.module ? loadModule(script.dataset) : null;
  const compose = document.getElementById("compose");
  if (!compose) {
    // The static site's front door: the page in the language the browser prefers among
    // ours, chosen by the module as the server chooses by `Accept-Language`.
    if (site) site.then((m) => location.replace(m.call("negotiate", navigator.languages.join(",")) + "/" + location.search)).catch(() => {});
    return;
  }
  const decode = document.getElementById("decode");
  const decodeBox = document.getElementById("decode-id");
  const action = new URL(compose.getAttribute("action"), location.href);
  const fields = Array.from(compose.elements, (e) => e.name).filter(Boolean);
  // The nodes listed first: adopting one takes it out of `from`'s live list. Unchanged
  // parts stay as they are, so that a screen reader does not hear them again.
  const swap = (from, to) => {
    if (to.innerHTML !== from.innerHTML) to.replaceChildren(...Array.from(from.childNodes).map((n) => document.adoptNode(n)));
  };
  const mark = (input, errorId, page) => {
    const error = page.getElementById(errorId);
    const wrong = error.textContent !== "";
    swap(error, document.getElementById(errorId));
    if (wrong) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  };
  const showCopy = () => {
    const copy = document.getElementById("copy");
    if (copy) copy.hidden = false;
  };
  // The parts of `page` that follow the values: the fields' errors, the result, the worked
  // example and the links to the other languages. A decoded ID fills the fields, as the
  // server fills them; an ID that is not one shows its error and changes nothing else.
  const show = (page, decoding) => {
    if (decoding) {
      mark(decodeBox, "id-error", page);
      if (decodeBox.hasAttribute("aria-invalid")) return;
      for (const f of fields) document.getElementById(f).value = page.getElementById(f).value;
    }
    for (const id of ["result", "worked", "languages"]) swap(page.getElementById(id), document.getElementById(id));
    for (const f of fields) mark(document.getElementById(f), f + "-error", page);
    showCopy();
  };
  const parse = (html) => new DOMParser().parseFromString(html, "text/html");
  // The page for `query`: from the module, or asked of the server.
  const rendered = async (query, signal) => {
    if (site) return parse((await site).call("render", query, Date.now()));
    const answer = await fetch(action.pathname + "?" + query, { signal });
    return answer.ok ? parse(await answer.text()) : null;
  };
  // One answer shown at a time, the newest asked for, whichever form asked: a later request
  // of either form aborts an earlier one, and an answer that is no longer the newest is
  // dropped, so answers never show out of order.
  let latest = 0;
  let inflight;
  const asker = (decoding) => {
    let timer;
    return {
      ask(query) {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          const mine = ++latest;
          // The address keeps what was asked, once typing pauses: a reload or a shared
          // link shows the same.
          history.replaceState(null, "", "?" + query);
          if (inflight) inflight.abort();
          inflight = new AbortController();
          try {
            const page = await rendered(query, inflight.signal);
            if (page && mine === latest) show(page, decoding);
          } catch (e) { /* aborted, or offline: the form still works */ }
        }, 120);
      },
      clear() {
        clearTimeout(timer);
        latest += 1;
        if (inflight) inflight.abort();
        document.getElementById("id-error").replaceChildren();
        decodeBox.removeAttribute("aria-invalid");
      },
    };
  };
  const composing = asker(false);
  const decoding = asker(true);
  compose.addEventListener("input", () => {
    // Spaces around a value dropped, as the server drops them from a submitted form.
    const params = new URLSearchParams(Array.from(new FormData(compose), ([k, v]) => [k, v.trim()]));
    composing.ask(params);
  });
  decode.addEventListener("input", () => {
    const id = decodeBox.value.trim();
    if (id) decoding.ask(new URLSearchParams({ id }));
    else decoding.clear();
  });
  showCopy();
  // Static files were rendered once, for no query: the module renders the page this
  // address asks for, with an ID of now, as the server would have.
  if (site) {
    const result = document.getElementById("result");
    rendered(location.search.slice(1)).then((page) => {
      if (latest > 0) return;
      for (const f of fields) document.getElementById(f).value = page.getElementById(f).value;
      decodeBox.value = page.getElementById("decode-id").value;
      mark(decodeBox, "id-error", page);
      show(page, false);
    }).catch(() => {}).finally(() => result.removeAttribute("aria-busy"));
  }
  document.getElementById("result").addEventListener("click", async (event) => {
    const button = event.target;
    if (button.id !== "copy") return;
    const id = document.getElementById("id");
    try {
      await navigator.clipboard.writeText(id.textContent);
      button.textContent = button.dataset.copied;
    } catch (e) {
      // No clipboard (plain http to another host): select it for the person to copy.
      const range = document.createRange();
      range.selectNodeContents(id);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = button.dataset.selected;
    }
  });

  // The module (`data-module`, from the page's address) with the catalogue of the page's
  // language (`data-words`): text in, the module's answer out, through its memory.
  async function loadModule({ module, words }) {
    const base = location.href;
    const [instance, catalogue] = await Promise.all([
      fetch(new URL(module, base)).then((r) => r.arrayBuffer()).then((bytes) => WebAssembly.instantiate(bytes)),
      words ? fetch(new URL(words, base)).then((r) => r.text()) : "",
    ]);
    const wasm = instance.instance.exports;
    const call = (name, text, ...args) => {
      const bytes = new TextEncoder().encode(text);
      // The buffer after the call that may grow the memory, which detaches the old one.
      const at = wasm.input(bytes.length);
      new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
      const length = wasm[name](...args);
      return new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, wasm.output(), length));
    };
    if (words && call("words", document.documentElement.lang + "\n" + catalogue) !== "") throw new Error("catalogue");
    return { call };
  }
})();
