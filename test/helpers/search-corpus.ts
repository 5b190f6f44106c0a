/**
 * The labelled corpus of the semantic-search quality check (issue 13): a small bilingual site (English and
 * German) and queries written as visitors type them, paraphrasing rather than quoting the entry that answers.
 */

export const SEARCH_TOKEN = 'folio_pub_SearchQualityToken0000000001';
export const SEARCH_MGT_TOKEN = 'folio_mgt_SearchQualityToken000000002';

type Text = [en: string, de: string];
interface Topic {
  id: string;
  type: 'page' | 'article';
  title: Text;
  summary: Text;
  body: Text;
  /** Text only in a block (tests that block text is indexed). */
  block?: { heading: Text; text: Text };
}

const TOPICS: Topic[] = [
  {
    id: 'ent_shipping',
    type: 'page',
    title: ['Shipping times', 'Lieferzeiten'],
    summary: [
      'Orders leave our warehouse within one working day.',
      'Bestellungen verlassen unser Lager innerhalb eines Werktags.',
    ],
    body: [
      'Standard parcels arrive in two to four working days. Express delivery arrives the next day if you order before noon.',
      'Standardpakete kommen in zwei bis vier Werktagen an. Expresssendungen kommen am nächsten Tag, wenn Sie vor zwölf Uhr bestellen.',
    ],
  },
  {
    id: 'ent_returns',
    type: 'page',
    title: ['Returns and refunds', 'Rückgabe und Erstattung'],
    summary: ['You have 30 days to send items back.', 'Sie haben 30 Tage Zeit, Artikel zurückzuschicken.'],
    body: [
      'Print the prepaid label, pack the unworn items and drop the parcel at any post office. We refund the purchase price to your original payment method within five days of receiving it.',
      'Drucken Sie das frankierte Etikett aus, packen Sie die ungetragenen Artikel ein und geben Sie das Paket bei der Post ab. Wir erstatten den Kaufpreis innerhalb von fünf Tagen nach Eingang auf Ihr ursprüngliches Zahlungsmittel.',
    ],
  },
  {
    id: 'ent_password',
    type: 'page',
    title: ['Account help', 'Hilfe zum Konto'],
    summary: [
      'Manage your profile, addresses and settings.',
      'Verwalten Sie Profil, Adressen und Einstellungen.',
    ],
    body: [
      'Your account keeps your order history and saved addresses.',
      'Ihr Konto speichert Ihre Bestellhistorie und Adressen.',
    ],
    block: {
      heading: ['Forgotten password', 'Passwort vergessen'],
      text: [
        'Click the reset link on the sign-in page and we email you a link to choose a new password. The link expires after one hour.',
        'Klicken Sie auf der Anmeldeseite auf den Link zum Zurücksetzen; wir senden Ihnen eine E-Mail, mit der Sie ein neues Passwort wählen. Der Link ist eine Stunde gültig.',
      ],
    },
  },
  {
    id: 'ent_pricing',
    type: 'page',
    title: ['Plans and pricing', 'Tarife und Preise'],
    summary: ['Three plans: Starter, Team and Enterprise.', 'Drei Tarife: Starter, Team und Enterprise.'],
    body: [
      'Starter is free for one user. Team costs 12 euros per user and month, billed yearly. Enterprise has custom terms.',
      'Starter ist für einen Nutzer kostenlos. Team kostet 12 Euro pro Nutzer und Monat bei jährlicher Abrechnung. Enterprise hat individuelle Konditionen.',
    ],
  },
  {
    id: 'ent_cancel',
    type: 'article',
    title: ['Ending your subscription', 'Abonnement beenden'],
    summary: [
      'You can stop your plan at any time from the billing settings.',
      'Sie können Ihren Tarif jederzeit in den Abrechnungseinstellungen beenden.',
    ],
    body: [
      'Open billing, choose cancel plan and confirm. You keep access until the end of the period you paid for, and we do not charge you again.',
      'Öffnen Sie die Abrechnung, wählen Sie Tarif kündigen und bestätigen Sie. Sie behalten den Zugang bis zum Ende des bezahlten Zeitraums, und wir belasten Sie nicht erneut.',
    ],
  },
  {
    id: 'ent_privacy',
    type: 'page',
    title: ['Privacy policy', 'Datenschutzerklärung'],
    summary: [
      'How we collect, use and protect personal data under the GDPR.',
      'Wie wir personenbezogene Daten nach der DSGVO erheben, nutzen und schützen.',
    ],
    body: [
      'We store only the data we need to deliver your orders. You may ask us at any time for a copy of your data or for its deletion.',
      'Wir speichern nur die Daten, die wir für Ihre Bestellungen brauchen. Sie können jederzeit eine Kopie Ihrer Daten oder deren Löschung verlangen.',
    ],
  },
  {
    id: 'ent_hours',
    type: 'page',
    title: ['Opening hours', 'Öffnungszeiten'],
    summary: [
      'Our shop in the old town is open six days a week.',
      'Unser Laden in der Altstadt hat sechs Tage die Woche geöffnet.',
    ],
    body: [
      'Monday to Friday from 9 am to 7 pm, Saturday from 10 am to 4 pm. We are closed on Sundays and public holidays.',
      'Montag bis Freitag von 9 bis 19 Uhr, Samstag von 10 bis 16 Uhr. Sonntags und an Feiertagen ist geschlossen.',
    ],
  },
  {
    id: 'ent_contact',
    type: 'page',
    title: ['Contact us', 'Kontakt'],
    summary: [
      'Write to our support team or call us.',
      'Schreiben Sie unserem Support-Team oder rufen Sie uns an.',
    ],
    body: [
      'Our support team answers emails within one business day. By phone we are there on weekdays from 9 am to 5 pm.',
      'Unser Support-Team beantwortet E-Mails innerhalb eines Werktags. Telefonisch sind wir werktags von 9 bis 17 Uhr erreichbar.',
    ],
  },
  {
    id: 'ent_careers',
    type: 'page',
    title: ['Careers', 'Karriere'],
    summary: ['Join our team in Berlin or remotely.', 'Arbeiten Sie mit uns in Berlin oder remote.'],
    body: [
      'We are hiring engineers, designers and customer support staff. Every position offers flexible hours, 30 days of holiday and a learning budget.',
      'Wir stellen Entwicklerinnen, Designer und Mitarbeitende im Kundenservice ein. Jede Stelle bietet flexible Arbeitszeiten, 30 Urlaubstage und ein Weiterbildungsbudget.',
    ],
  },
  {
    id: 'ent_history',
    type: 'article',
    title: ['Our story', 'Unsere Geschichte'],
    summary: [
      'From a garage workshop in 2009 to a company of eighty people.',
      'Von einer Garagenwerkstatt im Jahr 2009 zu einem Unternehmen mit achtzig Menschen.',
    ],
    body: [
      'Two friends began sewing bags in a garage. The first shop opened in 2012 and the online store followed a year later.',
      'Zwei Freunde begannen, in einer Garage Taschen zu nähen. 2012 eröffnete der erste Laden, ein Jahr später folgte der Onlineshop.',
    ],
  },
  {
    id: 'ent_sustainability',
    type: 'article',
    title: ['Sustainability', 'Nachhaltigkeit'],
    summary: [
      'Our packaging is made from recycled cardboard.',
      'Unsere Verpackung besteht aus recyceltem Karton.',
    ],
    body: [
      'We ship without plastic, offset the emissions of every delivery and take back old products for recycling.',
      'Wir versenden ohne Plastik, gleichen die Emissionen jeder Lieferung aus und nehmen alte Produkte zum Recycling zurück.',
    ],
  },
  {
    id: 'ent_giftcards',
    type: 'page',
    title: ['Gift cards', 'Geschenkgutscheine'],
    summary: ['Give a voucher from 10 to 500 euros.', 'Verschenken Sie einen Gutschein von 10 bis 500 Euro.'],
    body: [
      'Gift cards are sent by email within minutes and are valid for three years. They can be redeemed online and in our shop.',
      'Gutscheine werden innerhalb von Minuten per E-Mail verschickt und sind drei Jahre gültig. Sie können online und im Laden eingelöst werden.',
    ],
  },
  {
    id: 'ent_payment',
    type: 'page',
    title: ['Payment methods', 'Zahlungsarten'],
    summary: ['We accept cards, PayPal and invoice.', 'Wir akzeptieren Karten, PayPal und Rechnung.'],
    body: [
      'Pay with Visa, Mastercard, American Express, PayPal, Apple Pay or on invoice within 14 days.',
      'Bezahlen Sie mit Visa, Mastercard, American Express, PayPal, Apple Pay oder auf Rechnung innerhalb von 14 Tagen.',
    ],
  },
  {
    id: 'ent_international',
    type: 'article',
    title: ['International delivery', 'Internationaler Versand'],
    summary: ['We ship to 40 countries worldwide.', 'Wir liefern in 40 Länder weltweit.'],
    body: [
      'Outside the European Union, customs duties and import taxes may be charged by your country when the parcel arrives.',
      'Außerhalb der Europäischen Union kann Ihr Land bei Ankunft des Pakets Zölle und Einfuhrsteuern erheben.',
    ],
  },
  {
    id: 'ent_warranty',
    type: 'article',
    title: ['Warranty and repairs', 'Garantie und Reparaturen'],
    summary: ['Every bag has a five-year guarantee.', 'Jede Tasche hat fünf Jahre Garantie.'],
    body: [
      'If a seam or zip fails, send the bag to our workshop and we mend it free of charge.',
      'Wenn eine Naht oder ein Reißverschluss kaputtgeht, schicken Sie die Tasche in unsere Werkstatt und wir reparieren sie kostenlos.',
    ],
  },
  {
    id: 'ent_sizes',
    type: 'page',
    title: ['Size guide', 'Größentabelle'],
    summary: ['Measurements for our jackets and shirts.', 'Maße für unsere Jacken und Hemden.'],
    body: [
      'Measure your chest and waist and compare them with the table. Between two sizes, we recommend the larger one.',
      'Messen Sie Brust- und Taillenumfang und vergleichen Sie sie mit der Tabelle. Zwischen zwei Größen empfehlen wir die größere.',
    ],
  },
  {
    id: 'ent_loyalty',
    type: 'article',
    title: ['Rewards club', 'Bonusclub'],
    summary: ['Collect points with every purchase.', 'Sammeln Sie Punkte bei jedem Einkauf.'],
    body: [
      'Members earn one point per euro spent and get a 10 euro voucher for every 200 points, plus early access to sales.',
      'Mitglieder erhalten einen Punkt pro ausgegebenem Euro und für je 200 Punkte einen Gutschein über 10 Euro sowie früheren Zugang zum Sale.',
    ],
  },
  {
    id: 'ent_newsletter',
    type: 'page',
    title: ['Newsletter', 'Newsletter'],
    summary: ['News and offers once a month.', 'Neuigkeiten und Angebote einmal im Monat.'],
    body: [
      'Sign up with your email address to hear about new products first. You can unsubscribe with one click.',
      'Melden Sie sich mit Ihrer E-Mail-Adresse an, um als Erste von neuen Produkten zu erfahren. Abmelden geht mit einem Klick.',
    ],
  },
  {
    id: 'ent_accessibility',
    type: 'page',
    title: ['Accessibility', 'Barrierefreiheit'],
    summary: ['Our website follows WCAG 2.1 AA.', 'Unsere Website folgt WCAG 2.1 AA.'],
    body: [
      'Every page works with a keyboard and screen readers, images have text alternatives and colours have enough contrast.',
      'Jede Seite funktioniert mit Tastatur und Screenreader, Bilder haben Textalternativen und Farben genügend Kontrast.',
    ],
  },
  {
    id: 'ent_api',
    type: 'article',
    title: ['Developer API', 'Entwickler-API'],
    summary: [
      'Integrate our catalogue into your own software.',
      'Binden Sie unseren Katalog in Ihre eigene Software ein.',
    ],
    body: [
      'The REST API returns products, stock and prices as JSON. Request an API key in the partner portal.',
      'Die REST-API liefert Produkte, Lagerbestand und Preise als JSON. Einen API-Schlüssel beantragen Sie im Partnerportal.',
    ],
  },
  {
    id: 'ent_app',
    type: 'article',
    title: ['Mobile app', 'Mobile App'],
    summary: ['Shop from your phone.', 'Einkaufen mit dem Smartphone.'],
    body: [] as unknown as Text,
    block: {
      heading: ['Get the app', 'Die App holen'],
      text: [
        'Download our application for iPhone and Android from the App Store or Google Play and follow your parcels with push notifications.',
        'Laden Sie unsere Anwendung für iPhone und Android im App Store oder bei Google Play herunter und verfolgen Sie Ihre Pakete mit Push-Mitteilungen.',
      ],
    },
  },
  {
    id: 'ent_wholesale',
    type: 'page',
    title: ['Wholesale', 'Großhandel'],
    summary: ['For shops and businesses.', 'Für Läden und Unternehmen.'],
    body: [
      'Retailers get tiered discounts from 50 pieces and a dedicated account manager.',
      'Händler erhalten Staffelrabatte ab 50 Stück und eine feste Ansprechperson.',
    ],
  },
  {
    id: 'ent_workshops',
    type: 'article',
    title: ['Events', 'Veranstaltungen'],
    summary: ['What is on in our shop this season.', 'Was in dieser Saison in unserem Laden los ist.'],
    body: ['Join hands-on evening courses.', 'Machen Sie bei praktischen Abendkursen mit.'],
    block: {
      heading: ['Leather workshop', 'Lederwerkstatt'],
      text: [
        'Learn to cut and stitch your own leather wallet in a three-hour evening class with our craftspeople. Tools and material are included.',
        'Lernen Sie in einem dreistündigen Abendkurs mit unseren Handwerkern, Ihre eigene Lederbörse zuzuschneiden und zu nähen. Werkzeug und Material sind inklusive.',
      ],
    },
  },
  {
    id: 'ent_pets',
    type: 'article',
    title: ['Dogs welcome', 'Hunde willkommen'],
    summary: ['Four-legged friends may come along.', 'Vierbeiner dürfen mitkommen.'],
    body: [
      'Well-behaved dogs are welcome in our shop. We keep a water bowl and treats by the door.',
      'Gut erzogene Hunde sind in unserem Laden willkommen. An der Tür stehen ein Wassernapf und Leckerli bereit.',
    ],
  },
];

export interface LabelledQuery {
  q: string;
  locale: 'en' | 'de';
  expect: string;
}

export const QUERIES: readonly LabelledQuery[] = [
  { locale: 'en', q: 'how long until my package gets here', expect: 'ent_shipping' },
  { locale: 'en', q: 'send back shoes that do not fit and get my money back', expect: 'ent_returns' },
  { locale: 'en', q: 'I cannot remember my login', expect: 'ent_password' },
  { locale: 'en', q: 'how much does it cost per month', expect: 'ent_pricing' },
  { locale: 'en', q: 'stop being billed every month', expect: 'ent_cancel' },
  { locale: 'en', q: 'delete everything you know about me', expect: 'ent_privacy' },
  { locale: 'en', q: 'when is the store open on weekends', expect: 'ent_hours' },
  { locale: 'en', q: 'phone number for customer service', expect: 'ent_contact' },
  { locale: 'en', q: 'are you looking for new employees', expect: 'ent_careers' },
  { locale: 'en', q: 'who founded the company', expect: 'ent_history' },
  { locale: 'en', q: 'eco friendly boxes without plastic', expect: 'ent_sustainability' },
  { locale: 'en', q: 'a present voucher for a friend', expect: 'ent_giftcards' },
  { locale: 'en', q: 'can I pay with credit card', expect: 'ent_payment' },
  { locale: 'en', q: 'import fees when ordering from abroad', expect: 'ent_international' },
  { locale: 'en', q: 'the zipper on my bag broke', expect: 'ent_warranty' },
  { locale: 'en', q: 'which jacket size should I pick', expect: 'ent_sizes' },
  { locale: 'en', q: 'points program for regular customers', expect: 'ent_loyalty' },
  { locale: 'en', q: 'get updates in my inbox', expect: 'ent_newsletter' },
  { locale: 'en', q: 'using the site with a screen reader', expect: 'ent_accessibility' },
  { locale: 'en', q: 'access product data programmatically', expect: 'ent_api' },
  { locale: 'en', q: 'is there a smartphone application', expect: 'ent_app' },
  { locale: 'en', q: 'bulk orders for my boutique', expect: 'ent_wholesale' },
  { locale: 'en', q: 'class to make my own purse', expect: 'ent_workshops' },
  { locale: 'en', q: 'can I bring my puppy inside', expect: 'ent_pets' },
  { locale: 'en', q: 'track my delivery on my phone', expect: 'ent_app' },
  { locale: 'de', q: 'wie lange dauert der Versand', expect: 'ent_shipping' },
  { locale: 'de', q: 'Geld zurück für zurückgeschickte Artikel', expect: 'ent_returns' },
  { locale: 'de', q: 'neues Passwort festlegen', expect: 'ent_password' },
  { locale: 'de', q: 'was kostet der Team Tarif', expect: 'ent_pricing' },
  { locale: 'de', q: 'Abo kündigen', expect: 'ent_cancel' },
  { locale: 'de', q: 'wann hat der Laden am Samstag offen', expect: 'ent_hours' },
  { locale: 'de', q: 'offene Stellen in Berlin', expect: 'ent_careers' },
  { locale: 'de', q: 'Gutschein verschenken', expect: 'ent_giftcards' },
  { locale: 'de', q: 'kann ich per Rechnung zahlen', expect: 'ent_payment' },
  { locale: 'de', q: 'Zoll bei Lieferung in die Schweiz', expect: 'ent_international' },
  { locale: 'de', q: 'darf mein Hund mit in den Laden', expect: 'ent_pets' },
  { locale: 'de', q: 'Kurs für eine eigene Geldbörse aus Leder', expect: 'ent_workshops' },
];

const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
const loc = ([en, de]: Text) => ({ en, de });
const doc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

/** A bundle (format folio-bundle@1) of space `spaceId` with `ai` as given. */
export function searchBundle(spaceId = 'spc_search', ai = true): Record<string, unknown> {
  const fields = [
    { key: 'title', type: 'text', localized: true },
    { key: 'summary', type: 'textarea', localized: true },
    { key: 'body', type: 'richtext', localized: true },
    { key: 'sections', type: 'blocks', blocks: ['textBlock'] },
  ];
  return {
    format: 'folio-bundle@1',
    space: {
      id: spaceId,
      name: 'Search quality',
      ai,
      timeZone: 'UTC',
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
      ],
    },
    tokens: [
      { kind: 'public', value: SEARCH_TOKEN },
      { kind: 'management', value: SEARCH_MGT_TOKEN },
    ],
    types: [
      { key: 'page', kind: 'page', fields },
      { key: 'article', kind: 'collection', pages: true, fields },
      {
        key: 'textBlock',
        kind: 'block',
        fields: [
          { key: 'heading', type: 'text', localized: true },
          { key: 'text', type: 'textarea', localized: true },
        ],
      },
    ],
    entries: TOPICS.map((t, i) => ({
      id: t.id,
      type: t.type,
      name: t.title[0],
      slug: t.id.slice(4),
      slugs: { de: `${t.id.slice(4)}-de` },
      parent: null,
      position: i,
      tags: [],
      published,
      fields: {
        title: loc(t.title),
        summary: loc(t.summary),
        ...(t.body.length === 2 ? { body: { en: doc(t.body[0]), de: doc(t.body[1]) } } : {}),
        ...(t.block
          ? {
              sections: [
                {
                  id: `blk_${t.id.slice(4)}`,
                  type: 'textBlock',
                  fields: { heading: loc(t.block.heading), text: loc(t.block.text) },
                },
              ],
            }
          : {}),
      },
    })),
  };
}
