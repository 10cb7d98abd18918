"use strict";
// Progressive enhancement for rca's pages; everything stays readable without it. Allowed by its
// sha256 hash in the page's Content-Security-Policy: no inline handlers, no network, no eval.
(function () {
  var doc = document;
  doc.documentElement.classList.add("js");
  Array.prototype.forEach.call(doc.querySelectorAll("[data-js-only]"), function (el) {
    el.hidden = false;
  });

  // Filters: a [data-filter=ID] box of checkboxes (data-key="severity", value="critical") shows
  // the [data-item] elements of #ID whose data-<key> is checked, for every key of the box.
  Array.prototype.forEach.call(doc.querySelectorAll("[data-filter]"), function (box) {
    var target = doc.getElementById(box.getAttribute("data-filter"));
    if (!target) return;
    var items = target.querySelectorAll("[data-item]");
    var count = box.querySelector("[data-count]");
    function apply() {
      var keys = {};
      Array.prototype.forEach.call(box.querySelectorAll("input[data-key]"), function (c) {
        var k = c.getAttribute("data-key");
        keys[k] = keys[k] || {};
        if (c.checked) keys[k][c.value] = true;
      });
      var shown = 0;
      Array.prototype.forEach.call(items, function (it) {
        var ok = Object.keys(keys).every(function (k) {
          return keys[k][it.getAttribute("data-" + k)] === true;
        });
        it.hidden = !ok;
        if (ok) shown++;
      });
      if (count) count.textContent = shown + " of " + items.length + " shown";
    }
    box.addEventListener("change", apply);
    apply();
  });

  // Search: an input[data-search-for="ID ID"] (and an optional select[data-outcome]) keeps the
  // [data-search] elements of those containers whose text contains the query.
  Array.prototype.forEach.call(doc.querySelectorAll("[data-search-box]"), function (box) {
    var input = box.querySelector("input[type=search]");
    var select = box.querySelector("select");
    var count = box.querySelector("[data-count]");
    var ids = box.getAttribute("data-search-box").split(" ");
    var noun = box.getAttribute("data-noun") || "items";
    var items = [];
    ids.forEach(function (id) {
      var t = doc.getElementById(id);
      if (t) items = items.concat(Array.prototype.slice.call(t.querySelectorAll("[data-search]")));
    });
    var timer = null;
    function apply() {
      var q = input ? input.value.trim().toLowerCase() : "";
      var o = select ? select.value : "";
      var shown = 0, total = 0;
      items.forEach(function (it) {
        var ok = (q === "" || it.getAttribute("data-search").toLowerCase().indexOf(q) >= 0) &&
          (o === "" || it.getAttribute("data-outcome") === o);
        it.hidden = !ok;
        if (it.tagName === "TR") { total++; if (ok) shown++; }
      });
      if (count) count.textContent = shown + " of " + total + " " + noun + " shown";
    }
    function later() { clearTimeout(timer); timer = setTimeout(apply, 120); }
    if (input) input.addEventListener("input", later);
    if (select) select.addEventListener("change", apply);
    apply();
  });

  // A link into a folded artifact opens it and brings the cited line into view.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && doc.getElementById(id);
    if (!el) return;
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") p.open = true;
      if (p.hidden) p.hidden = false;
    }
    el.scrollIntoView({ block: "center" });
  }
  window.addEventListener("hashchange", reveal);
  if (location.hash) reveal();

  // Printing unfolds everything but the artifact texts, and folds back afterwards.
  var unfolded = [];
  window.addEventListener("beforeprint", function () {
    unfolded = Array.prototype.filter.call(doc.querySelectorAll("details:not([open]):not(.artifact)"),
      function (d) { d.open = true; return true; });
  });
  window.addEventListener("afterprint", function () {
    unfolded.forEach(function (d) { d.open = false; });
    unfolded = [];
  });
})();
