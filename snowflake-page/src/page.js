(() => {
  // As you type, the server renders the page for the new values, in the page's language,
  // and this shows its new parts: the result, the errors, the worked example, the links
  // to the other languages. Nothing about the format or its words is here.
  const compose = document.getElementById("compose");
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
            const answer = await fetch(action.pathname + "?" + query, { signal: inflight.signal });
            if (!answer.ok) return;
            const page = new DOMParser().parseFromString(await answer.text(), "text/html");
            if (mine === latest) show(page, decoding);
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
})();
