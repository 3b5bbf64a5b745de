/* On the home page, for a reader who follows authors or tags: the papers added since their
   previous visit by the authors and in the tags they follow, first, as rows. A followed tag's
   papers are in list.json; a followed author's are in their section of their page of authors,
   fetched (a few pages at most, each once). */
(() => {
  "use strict";
  const reading = window.DigestReading;
  const shared = window.Digest;
  const box = document.getElementById("followed");
  if (!reading || !shared || !box || !reading.since) { return; }
  const followed = reading.follows.all();
  const authors = Object.keys(followed.authors);
  const tags = new Set(Object.keys(followed.tags));
  if (!authors.length && !tags.size) { return; }
  const AT_MOST = 50;

  /** The paper URLs listed in the sections of `slugs` (followed authors), by their pages. */
  async function authorsPapers(slugs) {
    const urls = new Set();
    await Promise.all(slugs.map(async (slug) => {
      const at = shared.authorUrl(slug);
      try {
        const page = await window.DigestRows.page(at.slice(0, at.indexOf("#")));
        const section = page.getElementById(`author-${slug}`);
        (section ? section.querySelectorAll(".author-papers a[href]") : []).forEach((a) => urls.add(a.getAttribute("href")));
      } catch (error) {
        // why: an author's page that cannot be had leaves their papers out, not the others'
      }
    }));
    return urls;
  }

  (async () => {
    const [data, byAuthors] = await Promise.all([reading.loadList(), authorsPapers(authors)]);
    const tagsBySlug = new Map(data.tags.map((tag) => [tag.slug, tag]));
    const fresh = data.papers.filter((paper) => paper.added > reading.since
      && (paper.tags.some((tag) => tags.has(tag)) || byAuthors.has(paper.url))).slice(0, AT_MOST);
    if (!fresh.length) { return; }
    const list = document.getElementById("followed-list");
    list.replaceChildren(...fresh.map((paper) => reading.row(paper, tagsBySlug)));
    reading.enliven(list);
    box.hidden = false;
  })().catch(() => {});
})();
