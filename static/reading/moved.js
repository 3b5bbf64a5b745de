/* An address of an author that moved is sent on to where the author is listed now. Authors had
   a page each (authors/<slug>/); they are listed on a few pages, each on the one their slug
   hashes to, and how many pages there are doubles as the digest grows. So the page-not-found
   page sends authors/<slug>/ on, and a page of authors sends on an #author-<slug> it does not
   list: an old link or bookmark still finds the author. */
(() => {
  "use strict";
  const shared = window.Digest;
  if (!shared || !window.TextEncoder) { return; }
  const authors = `${shared.settings.reading.home}authors/`;
  const path = window.location.pathname;
  if (!path.startsWith(authors)) { return; }

  function decoded(text) {
    try {
      return decodeURIComponent(text);
    } catch (error) {
      return ""; // why: a malformed escape is no author's address
    }
  }

  const page = path.slice(authors.length).replace(/\/$/, "");
  const listed = document.querySelector("section.author");
  let slug = "";
  if (listed && window.location.hash.startsWith("#author-")) {
    const wanted = decoded(window.location.hash.slice("#author-".length));
    if (wanted && !document.getElementById(`author-${wanted}`)) { slug = wanted; }
  } else if (!listed && page && !page.includes("/")) {
    slug = decoded(page);
  }
  const moved = slug && shared.authorUrl(slug);
  if (moved && !moved.startsWith(`${authors}${page}/#`)) { window.location.replace(moved); }
})();
