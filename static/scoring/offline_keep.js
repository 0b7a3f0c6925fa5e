// A form that survives the network: a score sheet saved where the hall's wifi comes and goes.
// Any form marked data-offline-keep="<name of its one-time token field>" is sent with fetch();
// when the server cannot be reached, what was typed (its token included) is kept in this
// browser's localStorage under the page's address and the token, the page says it is not
// sent yet, and it is sent again when the browser comes back online, every RETRY_SECONDS and
// at the next load of the page. The token makes a resend harmless: the server recognises a
// save it already holds and never saves it twice. Once the server answers, the kept copy
// goes and its answer is shown, as a form sent without this script would show it. The page's
// element marked data-offline-status carries the words in the page's language.
// Without JavaScript the form is posted as it always was.
(function () {
  "use strict";
  const form = document.querySelector("form[data-offline-keep]");
  const status = document.querySelector("[data-offline-status]");
  const RETRY_SECONDS = 20;
  const prefix = "offline-keep:" + location.pathname + ":";
  // Set just before a kept copy's answer replaces the page, so that the new page (at the
  // address the server answered from) says Sent.
  const sentFlag = "offline-keep-sent:";
  let timer = null;
  let sending = false;

  function say(kind) {
    if (!status) return;
    status.textContent = status.dataset[kind];
    status.classList.toggle("message-success", kind === "sent");
    status.classList.toggle("message-warning", kind !== "sent");
    status.scrollIntoView({ block: "nearest" });
  }

  // Only what the official now logged in typed: on a shared phone, a sheet kept for another
  // official waits for them, never restored or sent in someone else's name (a blind second
  // entry must be a second official's).
  function keptKeys() {
    const user = (status && status.dataset.user) || "";
    const keys = [];
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index);
      if (!key.startsWith(prefix)) continue;
      const typedBy = JSON.parse(localStorage.getItem(key)).fields.find(function (pair) {
        return pair[0] === "typed_by";
      });
      if ((typedBy ? typedBy[1] : "") === user) keys.push(key);
    }
    return keys;
  }

  function stopRetrying() {
    clearInterval(timer);
    timer = null;
    window.removeEventListener("online", resendAll);
  }

  // The server's page replaces this one, as after an ordinary post: its messages (saved,
  // already saved, or the form's errors beside everything typed) are those of the server.
  function show(response, html, sent) {
    stopRetrying();
    if (sent) sessionStorage.setItem(sentFlag + new URL(response.url).pathname, "1");
    history.replaceState(null, "", response.url);
    document.open();
    document.write(html);
    document.close();
    // A browser honours autofocus once per tab, not at each page written into it: the
    // page's first autofocus (what went wrong, else the check) gets the focus, as it would
    // after a post without script.
    const first = document.querySelector("[autofocus]");
    if (first) first.focus();
  }

  // The CSRF token of this page, not the kept one: a login since (the session had ended)
  // gave the browser a new one.
  function body(fields) {
    const data = new FormData();
    const fresh = document.querySelector("[name=csrfmiddlewaretoken]");
    fields.forEach(function (pair) {
      const value = pair[0] === "csrfmiddlewaretoken" && fresh ? fresh.value : pair[1];
      data.append(pair[0], value);
    });
    return data;
  }

  function send(url, fields, key, resend) {
    return fetch(url, { method: "POST", body: body(fields), credentials: "same-origin" })
      .then(function (response) {
        // Forbidden: the session ended (or the page is too old for its CSRF token). The
        // copy waits for a login and the next load of this page, not for the next try.
        if (response.status === 403) {
          localStorage.setItem(key, JSON.stringify({ url: url, fields: fields }));
          stopRetrying();
          say("session");
          return;
        }
        // A gateway that cannot reach the server answers for it: nothing was saved.
        if ([502, 503, 504].includes(response.status)) throw new Error("server unreachable");
        return response.text().then(function (html) {
          localStorage.removeItem(key);
          show(response, html, resend && response.ok);
        });
      })
      .catch(function () {
        localStorage.setItem(key, JSON.stringify({ url: url, fields: fields }));
        say("kept");
        if (timer === null) {
          timer = setInterval(resendAll, RETRY_SECONDS * 1000);
          window.addEventListener("online", resendAll);
        }
      });
  }

  function resendAll() {
    if (sending) return;
    const keys = keptKeys();
    if (!keys.length) return;
    sending = true;
    const kept = JSON.parse(localStorage.getItem(keys[0]));
    send(kept.url, kept.fields, keys[0], true).then(function () {
      sending = false;
    });
  }

  // What was kept goes back into the form, so the official sees it and may change it; each
  // field says it changed, so that the page's other scripts follow (the sum of the points,
  // a hand's columns for its result).
  function restore(fields) {
    Array.from(form.elements).forEach(function (field) {
      if (field.type === "checkbox") field.checked = false;
    });
    fields.forEach(function (pair) {
      const field = form.elements.namedItem(pair[0]);
      if (!field || pair[0] === "csrfmiddlewaretoken" || field.type === "submit") return;
      if (field.type === "checkbox") field.checked = true;
      else field.value = pair[1];
      if (field.dispatchEvent) {
        field.dispatchEvent(new Event("input", { bubbles: true }));
        field.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  if (sessionStorage.getItem(sentFlag + location.pathname)) {
    sessionStorage.removeItem(sentFlag + location.pathname);
    say("sent");
  }
  if (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const fields = Array.from(new FormData(form, event.submitter).entries());
      const token = new FormData(form).get(form.dataset.offlineKeep);
      // Not form.action: the buttons named "action" shadow it.
      const url = new URL(form.getAttribute("action") || "", location.href).href;
      send(url, fields, prefix + token, false);
    });
  }
  // Sent again even when the page has no form any more (the sheet was saved by the send
  // whose answer was lost): the server says it holds it already.
  const keys = keptKeys();
  if (keys.length) {
    if (form) restore(JSON.parse(localStorage.getItem(keys[0])).fields);
    say("kept");
    resendAll();
  }
})();
