/* An address of an author that moved is sent on to where the author is listed now. Authors had
   a page each (authors/<slug>/); they are listed on a few pages, each on the one their slug
   hashes to, and how many pages there are doubles as the digest grows. So the page-not-found
   page sends authors/<slug>/ on, and a page of authors sends on an #author-<slug> it does not
   list: an old link or bookmark still finds the author. */
(() => {
  "use strict";
  const settings = window.DigestSettings;
  if (!settings || !window.TextEncoder) { return; }
  const { home, author_pages: pages } = settings.reading;
  const authors = `${home}authors/`;
  const path = window.location.pathname;
  if (!path.startsWith(authors)) { return; }

  /** The page of authors `slug` is on: FNV-1a (32 bits) of its UTF-8 bytes modulo the number
      of pages, in hex, as generator/model/urls.py's bucket() computes it. */
  function bucket(slug) {
    let digest = 0x811c9dc5;
    new TextEncoder().encode(slug).forEach((byte) => {
      digest = Math.imul(digest ^ byte, 0x01000193) >>> 0;
    });
    return (digest % pages).toString(16).padStart((pages - 1).toString(16).length, "0");
  }

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
  if (slug && bucket(slug) !== page) {
    window.location.replace(`${authors}${bucket(slug)}/#author-${encodeURIComponent(slug)}`);
  }
})();
