/* Copy buttons: an element <… id="ID" data-copy="KEY"> gets a button after it, labelled with the
   message KEY, that copies its text (and a status that says what happened). Without JavaScript
   there is no button and the text can be selected by hand; when the browser refuses clipboard
   access the text is selected and the reader is told to press Ctrl+C. Nothing here throws. */
(() => {
  "use strict";
  // why: every script's words come from shared/digest.js, in the site's language
  const messages = (window.DigestSettings || {}).messages || {};

  function say(button, key) {
    const message = messages[key] || "";
    const status = document.getElementById(button.getAttribute("data-copy-status") || "");
    if (status) status.textContent = message;
  }

  function select(element) {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function fallback(button, source) {
    let copied = false;
    select(source);
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    say(button, copied ? "copied" : "copyRefused");
  }

  function copy(button) {
    const source = document.getElementById(button.getAttribute("data-copy-target") || "");
    if (!source) return;
    const clipboard = navigator.clipboard;
    if (!clipboard || typeof clipboard.writeText !== "function") {
      fallback(button, source);
      return;
    }
    try {
      clipboard.writeText(source.textContent).then(() => {
        say(button, "copied");
      }, () => {
        fallback(button, source);
      });
    } catch (error) {
      fallback(button, source);
    }
  }

  /** The button and status of the element `source`: after it, in a row of buttons for a block. */
  function addButton(source) {
    const block = source.tagName === "PRE";
    const button = document.createElement("button");
    const status = document.createElement(block ? "p" : "span");
    button.type = "button";
    button.className = "button";
    button.textContent = messages[source.getAttribute("data-copy")] || "";
    button.setAttribute("data-copy-target", source.id);
    status.id = source.id + "-status";
    status.className = "meta";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    button.setAttribute("data-copy-status", status.id);
    button.addEventListener("click", () => { copy(button); });
    if (block) {
      const row = document.createElement("p");
      row.className = "buttons";
      row.appendChild(button);
      source.parentNode.insertBefore(row, source.nextSibling);
      row.parentNode.insertBefore(status, row.nextSibling);
    } else {
      source.parentNode.insertBefore(status, source.nextSibling);
      source.parentNode.insertBefore(button, status);
      source.parentNode.insertBefore(document.createTextNode(" "), button);
    }
  }

  const sources = document.querySelectorAll("[data-copy][id]");
  for (let i = 0; i < sources.length; i++) { addButton(sources[i]); }
})();
