from generator.model.slugs import author_slug, file_slug, is_file_slug, slugify


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


def test_c_cpp_and_csharp_get_three_slugs():
    assert [slugify(name, ascii_only=False) for name in ("C", "C++", "C#", "F#")] == [
        "c", "cpp", "csharp", "fsharp"]
    assert slugify("C++17 and g++ in Notepad++") == "cpp17-and-gpp-in-notepadpp"
    assert slugify("Issue #3 and x # y") == slugify("issue#3 and x # y") == "issue-3-and-x-y"


def test_a_file_slug_reads_look_alike_letters_in_a_latin_word_as_latin():
    assert file_slug("Аttention Is All You Nееd") == "attention-is-all-you-need"  # Cyrillic А, е
    assert file_slug("Οptimal Τransport") == "optimal-transport"  # Greek Ο, Τ


def test_a_file_slug_keeps_the_letters_of_a_title_mostly_in_another_script():
    assert file_slug("机器学习的新方法") == "机器学习的新方法"
    assert file_slug("GPT-4 在中文上的评测") == "gpt-4-在中文上的评测"
    assert file_slug("A Study of 机器学习") == "a-study-of"
    assert file_slug("?!") == ""


def test_a_file_name_is_lowercase_letters_and_digits_joined_by_single_hyphens():
    assert all(map(is_file_slug, ["paper-1", "机器学习", "cpp"]))
    assert not any(map(is_file_slug, ["", "Paper", "a--b", "x_y", "-a", "ä"]))
