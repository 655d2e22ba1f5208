// Account pages: offer the browser's time zone where the account is still on the UTC default, and close the
// phone menu after a choice. Everything works without this file.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var zone;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (e) {
      zone = null;
    }
    if (zone) {
      document.querySelectorAll("select[data-browser-zone='suggest']").forEach(function (select) {
        if (Array.prototype.some.call(select.options, function (option) { return option.value === zone; })) {
          select.value = zone;
        }
      });
      document.querySelectorAll("input[data-browser-zone='fill']").forEach(function (input) {
        input.value = zone;
      });
    }
    // Escape closes the open phone menu and gives focus back to its button.
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") return;
      var menu = document.querySelector("details.menu[open]");
      if (!menu) return;
      menu.removeAttribute("open");
      menu.querySelector("summary").focus();
    });
  });
})();
