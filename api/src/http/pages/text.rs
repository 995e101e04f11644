//! Every piece of text the pages show, in English and Dutch. One place, so a missing
//! translation is a compile error rather than a page in two languages.

use super::lang::Text;

pub const SITE: Text = Text::new("Yaniv championships", "Yaniv-kampioenschappen");
pub const SKIP: Text = Text::new("Skip to the content", "Naar de inhoud");
pub const HOME: Text = Text::new("Home", "Start");
pub const LANGUAGE: Text = Text::new("Language", "Taal");
pub const TOURNAMENTS: Text = Text::new("Tournaments", "Toernooien");
pub const NO_TOURNAMENTS: Text = Text::new(
    "No tournament has been created yet.",
    "Er is nog geen toernooi aangemaakt.",
);
pub const API_DOCS: Text = Text::new(
    "The REST API and its documentation",
    "De REST-API en haar documentatie",
);
pub const LANDING_INTRO: Text = Text::new(
    "Follow a championship: the seating of the current round, the standings, the knockout and the final ranking, updated live.",
    "Volg een kampioenschap: de tafelindeling van de huidige ronde, het klassement, de knock-outfase en de eindrangschikking, live bijgewerkt.",
);
pub const NOT_FOUND: Text = Text::new("Not found", "Niet gevonden");
pub const NO_SUCH_TOURNAMENT: Text =
    Text::new("There is no such tournament.", "Dit toernooi bestaat niet.");
pub const UNAVAILABLE: Text = Text::new(
    "The server cannot show this page right now. Try again in a moment.",
    "De server kan deze pagina nu niet tonen. Probeer het zo meteen opnieuw.",
);

// The tournament's own pages.
pub const OVERVIEW: Text = Text::new("Overview", "Overzicht");
pub const SEATING: Text = Text::new("Seating", "Tafelindeling");
pub const STANDINGS: Text = Text::new("Standings", "Klassement");
pub const STAGES: Text = Text::new("Stages", "Fasen");
pub const RANKING: Text = Text::new("Final ranking", "Eindrangschikking");
pub const PROJECTOR: Text = Text::new("Projector", "Projectie");
pub const LIVE: Text = Text::new(
    "This page follows the tournament live.",
    "Deze pagina volgt het toernooi live.",
);
pub const PHASE: Text = Text::new("Phase", "Fase");
pub const RULES: Text = Text::new("Rules", "Regels");
pub const PLAYERS: Text = Text::new("Players", "Spelers");
pub const ORGANIZER: Text = Text::new("Organizer", "Organisator");
pub const REGISTERED: Text = Text::new("Registered", "Ingeschreven");
pub const ROUND: Text = Text::new("Round", "Ronde");
pub const STAGE: Text = Text::new("Stage", "Fase");
pub const TABLE: Text = Text::new("Table", "Tafel");
pub const QUALIFICATION: Text = Text::new("Qualification", "Kwalificatie");
pub const KNOCKOUT: Text = Text::new("Knockout", "Knock-out");
pub const FINAL_TABLE: Text = Text::new("Final table", "Finaletafel");
pub const ONLINE: Text = Text::new("online", "online");
pub const PAPER: Text = Text::new("on paper", "op papier");
pub const PLAYING: Text = Text::new("playing", "bezig");
pub const WAITING: Text = Text::new("not started", "nog niet begonnen");
pub const DONE: Text = Text::new("result in", "uitslag binnen");
pub const ABSENT: Text = Text::new("did not come", "niet gekomen");
pub const ADVANCES: Text = Text::new("goes through", "gaat door");
pub const BYES: Text = Text::new("Byes", "Vrij");
pub const REDRAWN: Text = Text::new("Redrawn", "Opnieuw geloot");
pub const REDRAWN_BY: Text = Text::new("by", "door");
pub const SEATING_REPLACED: Text = Text::new("Seating it replaced", "Vervangen tafelindeling");
pub const NO_ROUND_YET: Text = Text::new(
    "No round has been drawn yet.",
    "Er is nog geen ronde geloot.",
);
pub const FIND_TABLE: Text = Text::new("Find my table", "Zoek mijn tafel");
pub const YOUR_NAME: Text = Text::new("Your name", "Je naam");
pub const FIND: Text = Text::new("Find", "Zoek");
pub const NOBODY_FOUND: Text = Text::new(
    "Nobody at this round's tables has that name.",
    "Niemand aan de tafels van deze ronde heeft die naam.",
);
pub const SHOW_ALL: Text = Text::new("Show every table", "Toon alle tafels");
pub const NO_STANDINGS: Text = Text::new(
    "The standings begin with the qualification.",
    "Het klassement begint met de kwalificatie.",
);
pub const PLACE: Text = Text::new("Place", "Plaats");
pub const PLACE_LOWER: Text = Text::new("place", "plaats");
pub const POINTS: Text = Text::new("points", "punten");
pub const PLAYER: Text = Text::new("Player", "Speler");
pub const GAMES: Text = Text::new("Games", "Spellen");
pub const ABSENCES: Text = Text::new("Missed", "Gemist");
pub const WINS: Text = Text::new("Wins", "Gewonnen");
pub const TABLE_POINTS: Text = Text::new("Table points", "Tafelpunten");
pub const SCORE_DIFFERENCE: Text = Text::new("Score difference", "Puntenverschil");
pub const REGISTRATION_ORDER: Text = Text::new("Registration", "Inschrijving");
pub const WITHDRAWN: Text = Text::new("withdrawn", "teruggetrokken");
pub const DOWNLOAD_CSV: Text = Text::new("Download as CSV", "Download als CSV");
pub const NO_RANKING: Text = Text::new(
    "The final ranking comes once the final table has its result.",
    "De eindrangschikking volgt zodra de finaletafel een uitslag heeft.",
);
pub const PROVISIONAL: Text = Text::new(
    "Provisional: the organizer has not published it yet.",
    "Voorlopig: de organisator heeft ze nog niet gepubliceerd.",
);
pub const REACHED: Text = Text::new("Reached", "Bereikt");
pub const DISQUALIFIED: Text = Text::new("Disqualified", "Gediskwalificeerd");
pub const NO_STAGES: Text = Text::new(
    "The stages begin when the qualification starts.",
    "De fasen beginnen bij de start van de kwalificatie.",
);

// The printables (`print/`). Texts with `{a}` and `{b}` take numbers from the rules
// (`print::fill`).
pub const PRINT: Text = Text::new("Print", "Afdrukken");
pub const SCORE_SHEETS: Text = Text::new("Score sheets", "Scorebladen");
pub const TABLE_CARDS: Text = Text::new("Table cards", "Tafelkaarten");
pub const PRINT_STANDINGS: Text = Text::new("Standings for print", "Klassement om af te drukken");
pub const PRINT_HINT: Text = Text::new(
    "Made for A4 paper, in black and white: print this page from the browser.",
    "Gemaakt voor A4-papier, in zwart-wit: druk deze pagina af vanuit de browser.",
);
pub const NO_PAPER_TABLES: Text = Text::new(
    "No table of this round is played on paper.",
    "Geen enkele tafel van deze ronde wordt op papier gespeeld.",
);
pub const NO_SUCH_ROUND: Text = Text::new(
    "This tournament has no such round.",
    "Dit toernooi heeft zo'n ronde niet.",
);
pub const BAD_ROUND_QUERY: Text = Text::new(
    "Stage and round are whole numbers, from 1.",
    "Fase en ronde zijn gehele getallen, vanaf 1.",
);
pub const SEAT: Text = Text::new("Seat", "Stoel");
pub const FINAL_TOTAL: Text = Text::new("Final total", "Eindtotaal");
pub const SIGNATURES: Text = Text::new("Signatures", "Handtekeningen");
pub const SHEET_HINT: Text = Text::new(
    "In each row, write every player's total after that round, reductions applied. Every player signs for the final totals.",
    "Schrijf op elke rij het totaal van elke speler na die ronde, verlagingen inbegrepen. Elke speler tekent voor de eindtotalen.",
);
pub const REMINDERS: Text = Text::new("Rules to remember", "Regels om te onthouden");
pub const VERSION: Text = Text::new("Version", "Versie");
pub const PRINTED_AT: Text = Text::new("Printed", "Afgedrukt");
pub const REDUCTION_EXACT: Text = Text::new(
    "A total of exactly {a} drops to {b}.",
    "Een totaal van precies {a} zakt naar {b}.",
);
pub const REDUCTION_MULTIPLE: Text = Text::new(
    "A total that is a multiple of {a} loses {b}.",
    "Een totaal dat een veelvoud van {a} is, verliest {b}.",
);
pub const REDUCTION_ONCE: Text = Text::new(
    "At most one reduction per round, and only for a player who scored points in it.",
    "Hoogstens één verlaging per ronde, en enkel voor wie in die ronde punten kreeg.",
);
pub const NO_REDUCTIONS: Text = Text::new(
    "Totals are never reduced.",
    "Totalen worden nooit verlaagd.",
);
pub const END_LOWEST_ABOVE: Text = Text::new(
    "The game ends after the round in which a player goes above {a}; the lowest total wins.",
    "Het spel eindigt na de ronde waarin een speler boven {a} komt; het laagste totaal wint.",
);
pub const END_LOWEST_AT: Text = Text::new(
    "The game ends after the round in which a player reaches {a}; the lowest total wins.",
    "Het spel eindigt na de ronde waarin een speler {a} bereikt; het laagste totaal wint.",
);
pub const END_ELIMINATION_ABOVE: Text = Text::new(
    "A player above {a} is out; the last player left wins.",
    "Een speler boven {a} valt af; wie als laatste overblijft, wint.",
);
pub const END_ELIMINATION_AT: Text = Text::new(
    "A player who reaches {a} is out; the last player left wins.",
    "Een speler die {a} bereikt, valt af; wie als laatste overblijft, wint.",
);
pub const CALL_THRESHOLD: Text = Text::new(
    "A call is allowed with {a} points or fewer in hand.",
    "Roepen mag met {a} punten of minder in de hand.",
);
pub const CALL_ANY_TOTAL: Text = Text::new(
    "A call is allowed at any total.",
    "Roepen mag bij elk totaal.",
);
pub const OVER_THRESHOLD_REFUSED: Text =
    Text::new("No call above {a}.", "Boven {a} roepen mag niet.");
pub const OVER_THRESHOLD_HAND_PLUS: Text = Text::new(
    "A call above {a}: the caller scores their hand + {b}.",
    "Wie boven {a} roept, krijgt de eigen hand + {b}.",
);
pub const OVER_THRESHOLD_LEFT_HAND: Text = Text::new(
    "A call above {a}: the caller scores {b} + the hand of the player on their left.",
    "Wie boven {a} roept, krijgt {b} + de hand van de speler links.",
);
pub const GO_ALONG: Text = Text::new(
    "Going along with as little as the caller or less: 0 points, and {a} for the caller; going along with more: {a}.",
    "Meegaan met evenveel als de roeper of minder: 0 punten, en {a} voor de roeper; meegaan met meer: {a}.",
);
pub const KLUFT: Text = Text::new(
    "A losing caller or challenger scores their hand + {a}.",
    "Een verliezende roeper of uitdager krijgt de eigen hand + {a}.",
);
pub const BEATEN_CALLER: Text = Text::new(
    "A beaten caller scores their hand + {a}.",
    "Een geklopte roeper krijgt de eigen hand + {a}.",
);
pub const BEATEN_CALLER_PER_PLAYER: Text = Text::new(
    "A beaten caller scores their hand + {a}, or + {b} per player when several beat them.",
    "Een geklopte roeper krijgt de eigen hand + {a}, of + {b} per speler als meerderen hem kloppen.",
);
pub const BEATEN_CALLER_FURTHER: Text = Text::new(
    "A beaten caller scores their hand + {a}, and + {b} for every further player at or below them.",
    "Een geklopte roeper krijgt de eigen hand + {a}, en + {b} voor elke volgende speler met evenveel of minder.",
);

/// A phase of the tournament, by its API name.
pub fn phase(name: &str) -> Text {
    match name {
        "setup" => Text::new("being set up", "in voorbereiding"),
        "registration_open" => Text::new("registration open", "inschrijving open"),
        "registration_closed" => Text::new("registration closed", "inschrijving gesloten"),
        "qualification" => Text::new("qualification", "kwalificatie"),
        "knockout" => Text::new("knockout", "knock-out"),
        _ => Text::new("finished", "afgelopen"),
    }
}

// The organizer's desk.
pub const DESK: Text = Text::new("Organizer's desk", "Organisatietafel");
pub const LOG_IN: Text = Text::new("Log in", "Aanmelden");
pub const LOG_OUT: Text = Text::new("Log out", "Afmelden");
pub const USERNAME: Text = Text::new("Username", "Gebruikersnaam");
pub const PASSWORD: Text = Text::new("Password", "Wachtwoord");
pub const NEEDS_SCRIPT: Text = Text::new(
    "The desk changes the tournament through the REST API from your browser: it needs JavaScript.",
    "De organisatietafel wijzigt het toernooi via de REST-API vanuit je browser: daarvoor is JavaScript nodig.",
);
pub const LOGGED_IN_AS: Text = Text::new("Logged in as", "Aangemeld als");
pub const DESK_INTRO: Text = Text::new(
    "Choose a tournament to run. Officials (the organizer and the referees) act from its desk page.",
    "Kies een toernooi. Officials (de organisator en de scheidsrechters) werken vanaf de pagina van het toernooi.",
);
pub const CHECK_IN: Text = Text::new("Check in", "Aanmelden aan de deur");
pub const CHECKED_IN: Text = Text::new("checked in", "aanwezig");
pub const NOT_CHECKED_IN: Text = Text::new("not checked in", "nog niet aanwezig");
pub const WITHDRAW: Text = Text::new("Withdraw", "Terugtrekken");
pub const REGISTRATION: Text = Text::new("Registration", "Inschrijving");
pub const REGISTER_PLAYER: Text = Text::new("Register a player", "Een speler inschrijven");
pub const REGISTER: Text = Text::new("Register", "Inschrijven");
pub const SEARCH_PLAYERS: Text = Text::new("Search the list", "Zoek in de lijst");
pub const OPEN_REGISTRATION: Text = Text::new("Open registration", "Inschrijving openen");
pub const CLOSE_REGISTRATION: Text = Text::new("Close registration", "Inschrijving sluiten");
pub const START_QUALIFICATION: Text = Text::new("Start the qualification", "Kwalificatie starten");
pub const DRAW: Text = Text::new("Draw the next round", "Volgende ronde loten");
pub const PAPER_TABLES: Text = Text::new(
    "Tables played on paper (numbers, comma-separated; empty: every table online)",
    "Tafels op papier (nummers, gescheiden door komma's; leeg: alle tafels online)",
);
pub const ADVANCE: Text = Text::new("Advance to the next stage", "Naar de volgende fase");
pub const FINISH: Text = Text::new(
    "Finish and publish the ranking",
    "Afsluiten en rangschikking publiceren",
);
pub const ACTIONS: Text = Text::new("Run the tournament", "Het toernooi leiden");
pub const DONE_OK: Text = Text::new("Done.", "Gedaan.");
pub const PUBLIC_PAGES: Text = Text::new("Public pages", "Publieke pagina's");
pub const STATE: Text = Text::new("State", "Status");
pub const CONFIRM_WITHDRAW: Text = Text::new(
    "Withdraw for good (never seated again)",
    "Definitief terugtrekken (nooit meer aan tafel)",
);
pub const CONFIRM_FINISH: Text = Text::new(
    "Finish the tournament and publish the final ranking? Nothing can change after it.",
    "Het toernooi afsluiten en de eindrangschikking publiceren? Daarna kan niets meer veranderen.",
);
pub const TABLES_OF_ROUND: Text = Text::new("Tables of round", "Tafels van ronde");
pub const ENTER_SHEET: Text = Text::new("Enter the score sheet", "Scoreblad invoeren");
pub const CORRECT_SHEET: Text = Text::new("Correct the result", "Uitslag corrigeren");
pub const SHEET: Text = Text::new("Score sheet", "Scoreblad");
pub const SHEET_HELP: Text = Text::new(
    "One line per round: who called (or whose hand emptied), and every hand shown. The rules score each line as you go; a line they refuse says why.",
    "Eén regel per ronde: wie Yaniv riep (of wiens hand leeg raakte), en elke getoonde hand. De regels rekenen elke regel meteen uit; een regel die ze weigeren zegt waarom.",
);
pub const ENDING: Text = Text::new("Ending", "Einde");
pub const CALLED_BY: Text = Text::new("called by", "geroepen door");
pub const EMPTIED_BY: Text = Text::new("hand emptied by", "hand leeg bij");
pub const HAND: Text = Text::new("hand", "hand");
pub const DECLARED: Text = Text::new("declared", "meegegaan");
pub const TOTALS: Text = Text::new("Totals", "Totalen");
pub const ADD_ROUND: Text = Text::new("Add a round", "Ronde toevoegen");
pub const REMOVE_ROUND: Text = Text::new("Remove the last round", "Laatste ronde verwijderen");
pub const RECORD_RESULT: Text = Text::new("Record the result", "Uitslag vastleggen");
pub const REASON: Text = Text::new("Reason", "Reden");
pub const RESULT_IN: Text = Text::new(
    "This table has its result:",
    "Deze tafel heeft haar uitslag:",
);
pub const NO_SUCH_TABLE: Text = Text::new("There is no such table.", "Deze tafel bestaat niet.");
pub const FLAGGED: Text = Text::new(
    "A result changed after these rounds were drawn, and their draws would come out differently now. The draws stand; the latest round can be drawn again while none of its tables has started.",
    "Een uitslag veranderde nadat deze rondes geloot werden, en hun loting zou nu anders uitvallen. De lotingen blijven staan; de laatste ronde kan opnieuw geloot worden zolang geen van haar tafels begonnen is.",
);
pub const REDRAW: Text = Text::new("Draw this round again", "Deze ronde opnieuw loten");
pub const FLAGGED_TITLE: Text = Text::new("Draws to review", "Lotingen na te kijken");
pub const PAPER_TABLES_SHORT: Text = Text::new("Tables on paper", "Tafels op papier");

// The referee's replay viewer.
pub const REPLAY: Text = Text::new("Replay of table", "Herspelen van tafel");
pub const REPLAY_HELP: Text = Text::new(
    "The table as it stood after any event of its history: every hand, the stock and the discard pile. Step through it, or go to a version; the address follows, to share it.",
    "De tafel zoals ze er na elke gebeurtenis van haar geschiedenis bij lag: elke hand, de trekstapel en de aflegstapel. Stap erdoorheen, of ga naar een versie; het adres volgt mee, om te delen.",
);
pub const FIRST: Text = Text::new("First", "Eerste");
pub const BACK_ONE: Text = Text::new("Back one", "Eén terug");
pub const FORWARD_ONE: Text = Text::new("Forward one", "Eén vooruit");
pub const LAST: Text = Text::new("Last", "Laatste");
pub const GO_TO_VERSION: Text = Text::new("Go to version", "Naar versie");
pub const GO: Text = Text::new("Go", "Ga");
pub const OF: Text = Text::new("of", "van");
pub const EVENT: Text = Text::new("Event", "Gebeurtenis");
pub const RECORD_ACTION: Text = Text::new("round {r}, action {a}", "ronde {r}, actie {a}");
pub const EMPTY_SEAT: Text = Text::new("empty seat", "lege plaats");
pub const HAND_CARDS: Text = Text::new("Hand", "Hand");
pub const HAND_TOTAL: Text = Text::new("Hand total", "Handtotaal");
pub const SCORE: Text = Text::new("Score", "Stand");
pub const TO_ACT: Text = Text::new("to act", "aan de beurt");
pub const STOCK: Text = Text::new("Stock", "Trekstapel");
pub const CARDS: Text = Text::new("cards", "kaarten");
pub const DISCARD_PILE: Text = Text::new("Discard pile of round", "Aflegstapel van ronde");
pub const TURNED_UP: Text = Text::new("turned up at the deal", "omgedraaid bij het delen");
pub const DREW_STOCK: Text = Text::new("drew from the stock", "trok van de stapel");
pub const DREW_DISCARD: Text = Text::new("took from the pile", "nam van de aflegstapel");
pub const TAKEN_BY: Text = Text::new("taken by", "genomen door");
pub const LAID_ON: Text = Text::new("laid on by", "erbij gelegd door");
pub const RESHUFFLED: Text = Text::new("shuffled back into the stock", "teruggeschud in de stapel");
pub const NOT_DEALT: Text = Text::new("No cards dealt yet.", "Nog geen kaarten gedeeld.");
pub const VERIFY: Text = Text::new("Verify the history", "Geschiedenis controleren");
pub const VERIFIED: Text = Text::new(
    "ok: every one of the {n} events checks out.",
    "ok: alle {n} gebeurtenissen kloppen.",
);
pub const FIRST_FAILURE: Text = Text::new("First failure", "Eerste fout");
pub const GO_TO_FAILURE: Text = Text::new("Go to that version", "Naar die versie");
pub const THIS_IS_THE_FAILURE: Text = Text::new(
    "This is the version where the history first fails.",
    "Dit is de versie waar de geschiedenis voor het eerst faalt.",
);
pub const EVENTS: Text = Text::new("Events", "Gebeurtenissen");
pub const TABLE_CREATED: Text = Text::new("the table is created", "de tafel wordt aangemaakt");
pub const STEP: Text = Text::new("Step", "Stap");
pub const GO_TO_STEP: Text = Text::new("Go to step", "Naar stap");

// The record viewer.
pub const RECORD_VIEWER: Text = Text::new("Replay a game record", "Een spelverslag herspelen");
pub const RECORD_VIEWER_HELP: Text = Text::new(
    "Paste a game record (yaniv-record/1, as the server exports it or as typed in from a paper sheet) or open its file. The rules replay it and you step through it as through a stored table, every hand shown. Nothing is stored.",
    "Plak een spelverslag (yaniv-record/1, zoals de server het uitvoert of zoals overgenomen van een papieren blad) of open het bestand. De regels spelen het opnieuw en je stapt erdoorheen zoals door een opgeslagen tafel, met elke hand zichtbaar. Er wordt niets opgeslagen.",
);
pub const RECORD_TEXT: Text = Text::new("Game record (JSON)", "Spelverslag (JSON)");
pub const RECORD_FILE: Text = Text::new("Or open a file", "Of open een bestand");
pub const REPLAY_RECORD: Text = Text::new("Replay", "Herspelen");
pub const RECORD_REPLAYS: Text = Text::new(
    "ok: the record replays to its end, {n} steps.",
    "ok: het verslag speelt tot het einde, {n} stappen.",
);
pub const RECORD_PROBLEM: Text = Text::new(
    "The rules stop the record at",
    "De regels stoppen het verslag bij",
);
pub const RECORD_STOPS_HERE: Text = Text::new(
    "The record stops after this step: the rules refuse its next part.",
    "Het verslag stopt na deze stap: de regels weigeren het volgende deel.",
);
pub const GO_TO_STOP: Text = Text::new("Go to the last step", "Naar de laatste stap");
pub const CARD_NAMES: Text = Text::new(
    r#"{"A":"ace","J":"jack","Q":"queen","K":"king","JK":"joker","C":"clubs","D":"diamonds","H":"hearts","S":"spades","pattern":"{rank} of {suit}"}"#,
    r#"{"A":"aas","J":"boer","Q":"vrouw","K":"heer","JK":"joker","C":"klaveren","D":"ruiten","H":"harten","S":"schoppen","pattern":"{suit} {rank}"}"#,
);

// The reference game client.
pub const PLAY: Text = Text::new("Play", "Spelen");
pub const PLAY_INTRO: Text = Text::new(
    "A game against the server's bots, or at a table other players join. The page plays through the REST API, as any client may.",
    "Een spel tegen de bots van de server, of aan een tafel waar andere spelers aanschuiven. De pagina speelt via de REST-API, zoals elke client dat mag.",
);
pub const HUMANS: Text = Text::new("Players, you included", "Spelers, jij inbegrepen");
pub const OPEN_TABLES: Text = Text::new(
    "Tables waiting for players",
    "Tafels die op spelers wachten",
);
pub const NO_OPEN_TABLES: Text = Text::new(
    "No table is waiting for players.",
    "Geen enkele tafel wacht op spelers.",
);
pub const REFRESH: Text = Text::new("Refresh the list", "De lijst vernieuwen");
pub const JOIN: Text = Text::new("Join", "Aanschuiven");
pub const OPEN: Text = Text::new("Open", "Openen");
pub const BY: Text = Text::new("by", "door");
pub const SEATS_TAKEN: Text = Text::new("seats taken", "plaatsen bezet");
pub const FREE_SEAT: Text = Text::new("free seat", "vrije plaats");
pub const YOU: Text = Text::new("you", "jij");
pub const LEAVE: Text = Text::new("Leave the table", "De tafel verlaten");
pub const START_GAME: Text = Text::new("Start the game", "Het spel starten");
pub const WAITING_PLAYERS: Text = Text::new(
    "The table waits for players. Free seats:",
    "De tafel wacht op spelers. Vrije plaatsen:",
);
pub const READY_TO_START: Text = Text::new(
    "Every seat is taken: the game can start.",
    "Alle plaatsen zijn bezet: het spel kan beginnen.",
);
pub const CREATOR_STARTS: Text = Text::new("The game is started by", "Het spel wordt gestart door");
pub const SLAP_DOWN: Text = Text::new("Slap down", "Opleggen:");
pub const ADD_ON: Text = Text::new("Add on", "Aanleggen:");
pub const PASS: Text = Text::new("Pass", "Passen");
pub const COME_BACK: Text = Text::new("I am back", "Ik ben terug");
pub const CONTRIBUTE: Text = Text::new(
    "Add my randomness to the shuffle",
    "Mijn toeval aan het schudden toevoegen",
);
pub const CONTRIBUTE_NOTE: Text = Text::new(
    "The deal waits for every player's randomness: the server committed to its seed, and yours is mixed in.",
    "Het delen wacht op het toeval van elke speler: de server legde zijn seed vast, en het jouwe wordt erdoor gemengd.",
);
pub const REVERSED: Text = Text::new(
    "A nine reversed the direction of play",
    "Een negen keerde de speelrichting om",
);
pub const PINATA_ASIDE: Text = Text::new(
    "A card lies aside for the next three (piñata)",
    "Een kaart ligt opzij voor de volgende drie (piñata)",
);
pub const QUEEN_GIVE: Text = Text::new("Crazy queen: give", "Gekke koningin: geef");
pub const QUEEN_TO: Text = Text::new("to", "aan");
pub const QUEEN_NOTE: Text = Text::new(
    "and take one of their cards, blindly.",
    "en neem blind een van hun kaarten.",
);
pub const WATERFALL_PASS: Text = Text::new("Pass a waterfall:", "Geef een waterval door:");
pub const WATERFALL_KEEP: Text = Text::new("Keep", "Houd");
pub const PILE_OF: Text = Text::new("Pile for", "Stapel voor");
pub const PILE_SINGLES: Text = Text::new("Pile for single cards", "Stapel voor losse kaarten");
pub const PILE_DEAD: Text = Text::new("dead", "dood");
pub const PILE_KILLED: Text = Text::new(
    "killed this pile for the round (Fifths disease)",
    "heeft deze stapel gedood voor de ronde (Fifths disease)",
);
pub const KILL_PILE: Text = Text::new(
    "Five of diamonds: kill the pile for",
    "Ruiten vijf: dood de stapel voor",
);
pub const WATERFALL_YOUR_PICK: Text = Text::new(
    "Your pick: keep one of the cards passed to you; the rest go on to your left.",
    "Jouw keuze: houd een van de kaarten die je krijgt; de rest gaat door naar links.",
);
pub const WATERFALL_GOING: Text =
    Text::new("A waterfall is going round", "Er gaat een waterval rond");
pub const ABSENT_NOTE: Text = Text::new(
    "You were marked absent: the server plays your seat until you are back.",
    "Je bent als afwezig gemarkeerd: de server speelt je plaats tot je terug bent.",
);
pub const CALL_PENALISED: Text = Text::new(
    "Your hand is above the call threshold: the rules accept this call, but score it with a penalty. Call anyway?",
    "Je hand zit boven de grens om te roepen: de regels aanvaarden deze roep, maar met strafpunten. Toch roepen?",
);
pub const PRESET: Text = Text::new("Rules", "Regels");
pub const BOTS: Text = Text::new("Bots", "Bots");
pub const NEW_TABLE: Text = Text::new("Start a table", "Een tafel starten");
pub const YOUR_HAND: Text = Text::new("Your hand", "Je hand");
pub const TOP_OF_PILE: Text = Text::new("On the pile", "Op de aflegstapel");
pub const THROW_DRAW_STOCK: Text = Text::new(
    "Throw, and draw from the stock",
    "Afleggen, en van de stapel trekken",
);
pub const THROW_TAKE: Text = Text::new("Throw, and take", "Afleggen, en nemen:");
pub const CALL_YANIV: Text = Text::new("Call Yaniv", "Yaniv roepen");
pub const GO_ALONG_BUTTON: Text = Text::new("Go along", "Meegaan");
pub const STAY_OUT: Text = Text::new("Stay out", "Niet meegaan");
pub const CHALLENGE: Text = Text::new("Challenge", "Uitdagen");
pub const NO_CHALLENGE: Text = Text::new("Do not challenge", "Niet uitdagen");
pub const YOUR_TURN: Text = Text::new(
    "Your turn: choose cards to throw.",
    "Jouw beurt: kies kaarten om af te leggen.",
);
pub const WAITING_FOR: Text = Text::new("Waiting for", "Wachten op");
pub const GAME_OVER: Text = Text::new("The game is over.", "Het spel is afgelopen.");
pub const ROUND_WORD: Text = Text::new("Round", "Ronde");
pub const NEW_TOURNAMENT: Text = Text::new("A new tournament", "Een nieuw toernooi");
pub const TOURNAMENT_NAME: Text = Text::new("Name", "Naam");
pub const CAPACITY: Text = Text::new("Most players", "Maximaal aantal spelers");
pub const QUALIFICATION_ROUNDS: Text = Text::new("Qualification rounds", "Kwalificatierondes");
pub const TABLE_MIN: Text = Text::new("Fewest players at a table", "Minimum spelers per tafel");
pub const TABLE_MAX: Text = Text::new("Most players at a table", "Maximum spelers per tafel");
pub const CREATE: Text = Text::new("Create", "Aanmaken");
pub const RESULTS_CSV: Text = Text::new("Results (CSV)", "Uitslagen (CSV)");
pub const STANDINGS_CSV: Text = Text::new("Standings (CSV)", "Klassement (CSV)");
