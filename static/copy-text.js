/* Copy buttons: <button data-copy-target="ID" data-copy-status="ID" hidden> copies the text of
   the element #ID. Without JavaScript the button stays hidden and the text can be selected by
   hand; when the browser refuses clipboard access the text is selected and the reader is told
   to press Ctrl+C. Nothing here throws. */
(function () {
  "use strict";
  // why: the page gives every script its words, in the site's language
  var source = document.getElementById("interface-messages");
  var messages = source ? JSON.parse(source.textContent) : {};

  function say(button, key) {
    var message = messages[key] || "";
    var status = document.getElementById(button.getAttribute("data-copy-status") || "");
    if (status) status.textContent = message;
  }

  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function fallback(button, source) {
    var copied = false;
    select(source);
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    say(button, copied ? "copied" : "copyRefused");
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy-target") || "");
    if (!source) return;
    var clipboard = navigator.clipboard;
    if (!clipboard || typeof clipboard.writeText !== "function") {
      fallback(button, source);
      return;
    }
    try {
      clipboard.writeText(source.textContent).then(function () {
        say(button, "copied");
      }, function () {
        fallback(button, source);
      });
    } catch (error) {
      fallback(button, source);
    }
  }

  var buttons = document.querySelectorAll("button[data-copy-target]");
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    })(buttons[i]);
  }
})();
