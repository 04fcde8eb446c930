"""Українські повідомлення гри в терміналі (foxtrot play, перегляд запису)."""

MESSAGES: dict[str, str | dict[str, str]] = {
    "tui_title": "Фокстрот",
    "tui_too_small": (
        "Вікно термінала замале: для «Фокстрота» потрібно щонайменше {width} × {height}.\n"
        "Збільште вікно."
    ),
    # налаштування
    "tui_setup_title": "Фокстрот — новий матч",
    "tui_setup_players": "Гравців",
    "tui_setup_language": "Мова",
    "tui_setup_seat": "Місце {n}",
    "tui_seat_human": "Людина",
    "tui_seat_bot": "Комп'ютер, {level}",
    "tui_setup_name_placeholder": "ім'я (можна не вводити)",
    "tui_setup_take": "Як забирають карти",
    "tui_take_any": "будь-коли у свій хід (take = any)",
    "tui_take_match": "валетом або такою ж (take = match)",
    "tui_explain_take_match": (
        "take = match: карти зі столу забирає валет або карта значення верхньої."
    ),
    "tui_explain_take_any": (
        "take = any: у свій хід можна забрати всі карти зі столу; тому, хто починає нову "
        "стопку, майже не набрати очок, і матч часто вирішує перша роздача."
    ),
    "tui_setup_forced": "Фокстрот обов'язковий",
    "tui_yes": "так",
    "tui_no": "ні",
    "tui_explain_forced_no": "Можна зіграти іншу карту, навіть коли можна зробити фокстрот.",
    "tui_explain_forced_yes": "Якщо можна зробити фокстрот, його треба зробити.",
    "tui_setup_leftover": "Карти на столі наприкінці",
    "tui_leftover_discard": "не дістаються нікому",
    "tui_leftover_last_taker": "тому, хто брав останнім",
    "tui_explain_leftover_discard": (
        "Карти, що лишилися на столі наприкінці роздачі, не дістаються нікому."
    ),
    "tui_explain_leftover_last_taker": (
        "Карти, що лишилися на столі наприкінці роздачі, отримує той, хто брав останнім."
    ),
    "tui_setup_tie": "Найбільше карт, нічия",
    "tui_tie_none": "ніхто не отримує",
    "tui_tie_all": "отримують усі",
    "tui_explain_tie_none": (
        "Якщо найбільше карт у кількох гравців порівну, 5 очок не отримує ніхто."
    ),
    "tui_explain_tie_all": (
        "Якщо найбільше карт у кількох гравців порівну, кожен із них отримує 5 очок."
    ),
    "tui_setup_target": "Матч до",
    "tui_target_custom": "інше…",
    "tui_target_placeholder": "очок",
    "tui_explain_target": "Матч закінчується після тієї роздачі, у якій хтось набрав стільки очок.",
    "tui_setup_dealer": "Першого, хто здає, визначить жереб на початку матчу.",
    "tui_setup_start": "Почати",
    "tui_setup_quit": "Вийти",
    "tui_setup_bad_target": "Матч грають до цілого додатного числа очок.",
    "tui_setup_no_human": "Хоча б на одному місці має грати людина.",
    "tui_keys_setup": (
        "Tab — наступне поле · Enter — відкрити список, вибрати · F2 — почати · Esc — вийти"
    ),
    "tui_lang_en": "English",
    "tui_lang_ru": "Русский",
    "tui_lang_uk": "Українська",
    "tui_level_easy": "легкий",
    "tui_level_medium": "середній",
    "tui_level_hard": "сильний",
    "tui_level_random": "випадковий",
    "tui_level_greedy": "жадібний",
    "tui_level_expert": "експерт",
    "tui_default_player": "Гравець {n}",
    "tui_default_bot": "Комп'ютер ({level})",
    "tui_default_bot_n": "Комп'ютер {n} ({level})",
    # стіл
    "tui_deal": "Роздача {deal}",
    "tui_deal_short": "Р{deal}",
    "tui_dealer": "здає: {name}",
    "tui_turn": "ходить: {name}",
    "tui_stock": {
        "one": "у запасі {n} карта",
        "few": "у запасі {n} карти",
        "many": "у запасі {n} карт",
    },
    "tui_target": "матч до {target}",
    "tui_col_player": "Гравець",
    "tui_col_hand": "На руці",
    "tui_col_taken": "Взято",
    "tui_col_foxtrots": "Фокстроти",
    "tui_col_total": "Матч",
    "tui_dealer_mark": "здає",
    "tui_you_mark": "ви",
    "tui_marks": "({marks})",
    "tui_pile": {
        "one": "На столі {n} карта",
        "few": "На столі {n} карти",
        "many": "На столі {n} карт",
    },
    "tui_pile_empty": "порожньо",
    "tui_top": "зверху",
    "tui_hand_hidden": "Карти на руці приховано.",
    "tui_your_hand": "{name}, ваші карти ({cards}):",
    "tui_your_hand_turn": "{name}, ваш хід — ваші карти ({cards}):",
    "tui_key_play": "зіграти",
    "tui_key_select": "вибрати",
    "tui_key_take": "забрати",
    "tui_key_undo": "скасувати",
    "tui_key_hint": "підказка",
    "tui_key_count": "лік карт",
    "tui_key_rules": "правила",
    "tui_key_scores": "очки",
    "tui_key_quit": "вийти",
    "tui_wrong_key": "Клавіша {pressed} тут нічого не робить: клавіші перелічено нижче.",
    "tui_last_move": "Останній хід: {text}",
    "tui_cover_soon": (
        "Хід зроблено. Натисніть будь-яку клавішу, щоб сховати стіл для гравця {name}."
    ),
    "tui_undone": "Ваш останній хід і відповіді комп'ютера скасовано.",
    "tui_undo_log": "{name} скасовує хід.",
    "tui_undo_none": "У цій роздачі немає вашого ходу, який можна скасувати.",
    "tui_undo_revealed": "Скасувати запізно: після вашого ходу із запасу роздавали карти.",
    "tui_undo_hot_seat": "Ходи скасовуються лише в матчі проти комп'ютера.",
    "tui_not_your_turn": "Зачекайте: зараз не ваш хід.",
    "tui_no_such_card": "На цій клавіші немає карти.",
    "tui_illegal": "Так зараз ходити не можна.",
    "tui_illegal_not_your_turn": "Зачекайте: зараз не ваш хід.",
    "tui_illegal_not_in_hand": "Цієї карти у вас немає.",
    "tui_illegal_take_not_allowed": (
        "За цим столом карти забирають лише валетом або картою того ж значення, що й верхня."
    ),
    "tui_illegal_empty_pile": "На столі порожньо: забирати нічого.",
    "tui_illegal_must_foxtrot": (
        "Ви можете зробити фокстрот ({cards}), і за цим столом це обов'язково."
    ),
    "tui_illegal_match_over": "Матч закінчено.",
    "tui_illegal_no_deal": "Наступну роздачу ще не роздано.",
    "tui_lot": "Жереб: {draws}. Першим здає {name}.",
    "tui_lot_draw": "{name} {card}",
    "tui_resumed": "Матч триває з файла {path}.",
    "tui_bot_failed_error": (
        "{name}: помилка в програмі, хід не вибрано — цього разу зіграно випадковий хід. Матч "
        "збережено у файлі {path}."
    ),
    "tui_bot_failed_illegal": (
        "{name}: вибрано недозволений хід — цього разу замість нього зіграно випадковий хід. "
        "Матч збережено у файлі {path}."
    ),
    # заслона
    "tui_cover": "Передайте хід: {name} — натисніть Enter",
    "tui_cover_note": "Стіл приховано, щоб ніхто не побачив чужих карт.",
    # вікна
    "tui_keys_close": "Enter або Esc — закрити",
    "tui_thinking": "Думаю…",
    "tui_hint_title": "Підказка",
    "tui_hint_play": "Зіграйте {card} (клавіша {shortcut}).",
    "tui_hint_take": "Заберіть карти зі столу (клавіша t).",
    "tui_keys_hint": "Enter — зіграти так · Esc — закрити",
    "tui_counting_title": "Лік карт",
    "tui_coach_failed": "Тренер не зміг відповісти: {error}",
    "tui_rules_title": "Правила",
    "tui_keys_rules": "↑↓ PgUp PgDn — гортати · Esc — закрити",
    "tui_scores_title": "Очки за кожну роздачу",
    "tui_no_scores_yet": "Жодну роздачу ще не закінчено.",
    # підсумки
    "tui_score_title": "Роздачу {deal} закінчено — підрахунок очок",
    "tui_col_foxtrots_n": "Фокстр.",
    "tui_col_doubles_n": "Подв.",
    "tui_col_cards": "Карт",
    "tui_col_p2": "За\nкарти",
    "tui_col_p3": "Більше\nвсіх",
    "tui_col_p4": "Роздача",
    "tui_score_note": (
        "Роздача = 10 за фокстрот і 20 за подвійний + очки за карти (10 за десятку, 1 за туза й"
        " валета, −20 за Д♠) + 5 тому, хто взяв найбільше карт. Матч грають до {target}."
    ),
    "tui_winner": "{name} виграє матч: {points}.",
    "tui_keys_next_deal": "Enter — роздати наступну роздачу",
    "tui_keys_continue": "Enter — далі",
    "tui_match_over": "Матч закінчено",
    "tui_total_line": "{name}: {points}",
    "tui_saved_at": "Запис матчу збережено в {path}.",
    "tui_review_offer": "Розбір ходів гравця {name}: комп'ютер перевірить кожен хід.",
    "tui_keys_match_end": "v — розбір · Tab — інший гравець · n — новий матч · q — вийти",
    "tui_review_title": "Розбір ходів: {name}",
    "tui_reviewing": "Комп'ютер перевіряє кожен хід… це може забрати хвилину.",
    "tui_review_empty": "Розбирати було нічого.",
    # вихід і продовження
    "tui_saved": "Матч збережено в {path}. Продовжити: foxtrot play --resume {path}",
    "tui_no_autosave": "Немає збереженого матчу, який можна продовжити.",
    "tui_resume_over": "Матч у {path} закінчено; переглянути його: foxtrot replay {path}",
    "tui_record_error": "Збережений матч у {path} не прочитати: {reason}",
    "tui_not_kept": "Жодного ходу не зроблено, тому матч не збережено.",
    "tui_resume_title": "Продовжити збережений матч",
    "tui_resume_item": "{names} · {date} · роздача {deal} · {score}",
    "tui_keys_resume": "↑↓ — вибрати · Enter — продовжити · Esc — вийти",
    # перегляд запису
    "tui_replay_header": "Роздача {deal} з {deals}, крок {step} з {steps}",
    "tui_key_next": "уперед",
    "tui_key_previous": "назад",
    "tui_key_deal": "наступна/попередня роздача",
    "tui_key_ends": "на початок/у кінець",
    "tui_key_jump": "перейти до роздачі",
    "tui_key_hands": "показати всі карти",
    "tui_key_close_viewer": "вийти",
    "tui_jump_title": "Перейти до роздачі (від 1 до {deals})",
    "tui_jump_placeholder": "номер роздачі, від 1 до {deals}",
    "tui_jump_bad": "Введіть число від 1 до {deals}.",
    "tui_keys_jump": "Enter — перейти · Esc — скасувати",
}
