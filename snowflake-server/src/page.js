(() => {
  const compose = document.getElementById("compose");
  const decode = document.getElementById("decode");
  const result = document.getElementById("result");
  const text = (tag, value, attrs = {}) => {
    const node = document.createElement(tag);
    node.textContent = value;
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const show = (d) => {
    result.replaceChildren();
    const idLine = text("p", "ID ", { class: "id" });
    idLine.append(text("output", d.id, { id: "id" }), " ", text("button", "Copy", { type: "button", id: "copy" }));
    const time = text("p", "Time ");
    time.append(text("output", d.time, { id: "time" }), " ");
    const ms = text("span", "(", { class: "muted" });
    ms.append(text("output", String(d.timestamp_ms), { id: "ms" }), " ms)");
    time.append(ms);
    const code = text("code", "", { id: "binary" });
    const body = document.createElement("tbody");
    d.segments.forEach((s, i) => {
      const cls = s.key;
      if (i > 0) code.append(" ");
      code.append(text("span", s.bits, { class: "seg " + cls }));
      const row = text("tr", "", { class: cls });
      row.append(text("th", s.name, { scope: "row" }), text("td", String(s.bits.length)), text("td", String(s.value)));
      body.append(row);
    });
    const table = text("table", "", { id: "legend" });
    const head = document.createElement("thead");
    const hr = document.createElement("tr");
    hr.append(text("th", "field", { scope: "col" }), text("th", "bits", { scope: "col" }), text("th", "value", { scope: "col" }));
    head.append(hr);
    table.append(head, body);
    result.append(idLine, time, code, table);
  };
  const stale = () => result.replaceChildren(text("p", "Fix the fields marked above.", { class: "muted" }));
  const errors = (list, fields) => {
    for (const f of fields) {
      const message = (list.find((e) => e.field === f) || {}).message || "";
      document.getElementById(f === "id" ? "id-error" : f + "-error").textContent = message;
      const input = document.getElementById(f === "id" ? "decode-id" : f);
      if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    }
  };
  // One request at a time per form: a newer one aborts the older, so answers never arrive out of order.
  const asker = (fields) => {
    let timer, inflight;
    return {
      ask(url) {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          if (inflight) inflight.abort();
          inflight = new AbortController();
          try {
            const answer = await fetch(url, { signal: inflight.signal });
            const body = await answer.json();
            if (answer.ok) { errors([], fields); show(body); }
            else { errors(body.errors || [body.error], fields); stale(); }
          } catch (e) { /* aborted, or offline: the form still works */ }
        }, 120);
      },
      clear() { clearTimeout(timer); if (inflight) inflight.abort(); errors([], fields); },
    };
  };
  // The form's own fields: their names are the API's keys.
  const composing = asker(Array.from(compose.elements, (e) => e.name).filter(Boolean));
  const decoding = asker(["id"]);
  compose.addEventListener("input", () => {
    // Spaces around a value dropped, as the page's form without JavaScript drops them:
    // the API reads its fields exactly as its contract describes them.
    const params = new URLSearchParams(Array.from(new FormData(compose), ([k, v]) => [k, v.trim()]));
    history.replaceState(null, "", "?" + params);
    composing.ask("/v1/compose?" + params);
  });
  decode.addEventListener("input", () => {
    const id = document.getElementById("decode-id").value.trim();
    if (id) decoding.ask("/v1/decode/" + encodeURIComponent(id));
    else decoding.clear();
  });
  const copy = document.getElementById("copy");
  if (copy) copy.hidden = false;
  result.addEventListener("click", async (event) => {
    if (event.target.id !== "copy") return;
    const id = document.getElementById("id");
    try {
      await navigator.clipboard.writeText(id.textContent);
      event.target.textContent = "Copied";
    } catch (e) {
      // No clipboard (plain http to another host): select it for the person to copy.
      const range = document.createRange();
      range.selectNodeContents(id);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      event.target.textContent = "Selected";
    }
  });
})();
