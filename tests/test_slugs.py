from generator.model.slugs import author_slug, slugify


def test_slugify_drops_accents_and_cuts_at_a_word():
    assert slugify("Zoë Müller: a Study") == "zoe-muller-a-study"
    assert slugify("one two three", max_length=8) == "one-two"


def test_an_author_slug_keeps_letters_of_every_script():
    assert author_slug("Émile Borel") == "emile-borel"
    assert author_slug("Oskar Strøm") == "oskar-strom"
    assert author_slug("Gökçe Yıldız") == "gokce-yildiz" and author_slug("Łukasz") == "lukasz"
    assert author_slug("王芳") == "王芳"
    assert author_slug("John von Neumann") == "john-von-neumann"


def test_spellings_apart_only_by_case_accents_or_punctuation_share_a_slug():
    assert author_slug("Zoë Müller") == author_slug("Zoe Muller") == author_slug("ZOE  MÜLLER.")
    assert author_slug("J. Smith") == author_slug("J Smith")
    assert author_slug("Li Wei") != author_slug("Wei Li")


def test_a_name_with_no_letters_has_no_slug():
    assert author_slug("—") == ""
