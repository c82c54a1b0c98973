/**
 * Slack's Block Kit, as the fake Slack checks it: each block, element and composition object with
 * the fields Slack allows, which of them are required, and their limits, from Slack's published
 * reference (https://docs.slack.dev/reference/block-kit/, cross-checked with Slack's own typings,
 * @slack/types). A type missing here is refused as Slack refuses an unknown one: add it with its
 * fields from the reference when burnrate starts sending it.
 */

/** What one field may hold. */
export type FieldRule =
  | { kind: 'string'; min?: number; max?: number; oneOf?: readonly string[] }
  | { kind: 'boolean' }
  | { kind: 'number' }
  /** A text object: plain_text (or mrkdwn unless `plainOnly`), its text `min`..`max` characters. */
  | { kind: 'text'; max: number; min?: number; plainOnly?: boolean }
  /** A composition object without a type field (confirm, option, ...). */
  | { kind: 'object'; of: CompositionName }
  /** One element of these types (elements and text objects carry a type). */
  | { kind: 'typed'; of: readonly string[] }
  | { kind: 'array'; item: FieldRule; min?: number; max?: number }
  /** An object kept as it is (a rich text block's inner structure, a file reference). */
  | { kind: 'json' };

/** Composition objects have no type field: a field's rule names which one it holds. */
export type CompositionName =
  | 'confirm'
  | 'option'
  | 'option_group'
  | 'dispatch_action_config'
  | 'conversation_filter'
  | 'column_setting'
  | 'segment'
  | 'data_series'
  | 'data_point'
  | 'axis_config';

export interface ObjectSpec {
  fields: Readonly<Record<string, FieldRule>>;
  required?: readonly string[];
}

const str = (max?: number, min?: number): FieldRule => ({ kind: 'string', ...(max ? { max } : {}), ...(min ? { min } : {}) });
const bool: FieldRule = { kind: 'boolean' };
const num: FieldRule = { kind: 'number' };
const plain = (max: number): FieldRule => ({ kind: 'text', max, plainOnly: true });
const anyText = (max: number): FieldRule => ({ kind: 'text', max });
const arrayOf = (item: FieldRule, max?: number, min = 1): FieldRule => ({ kind: 'array', item, min, ...(max ? { max } : {}) });
const object = (of: CompositionName): FieldRule => ({ kind: 'object', of });
const typed = (...of: string[]): FieldRule => ({ kind: 'typed', of });
const style: FieldRule = { kind: 'string', oneOf: ['primary', 'danger'] };

/** Fields many interactive elements share (the reference's "action_id", "confirm", "focus_on_load", "placeholder"). */
const actionable = { action_id: str(255, 1) };
const confirmable = { confirm: object('confirm') };
const focusable = { focus_on_load: bool };
const placeholdable = { placeholder: plain(150) };
const dispatchable = { dispatch_action_config: object('dispatch_action_config') };

/** Objects without a `type`, named by where they appear. */
export const COMPOSITION = {
  confirm: {
    fields: { title: plain(100), text: anyText(300), confirm: plain(30), deny: plain(30), style },
    required: ['title', 'text', 'confirm', 'deny'],
  },
  option: {
    fields: { text: anyText(75), value: str(150), description: anyText(75), url: str(3000) },
    required: ['text', 'value'],
  },
  option_group: {
    fields: { label: plain(75), options: arrayOf(object('option'), 100) },
    required: ['label', 'options'],
  },
  dispatch_action_config: {
    fields: { trigger_actions_on: arrayOf({ kind: 'string', oneOf: ['on_enter_pressed', 'on_character_entered'] }) },
  },
  conversation_filter: {
    fields: {
      include: arrayOf({ kind: 'string', oneOf: ['im', 'mpim', 'private', 'public'] }, 4),
      exclude_external_shared_channels: bool,
      exclude_bot_users: bool,
    },
  },
  column_setting: {
    fields: { align: { kind: 'string', oneOf: ['left', 'center', 'right'] }, is_wrapped: bool },
  },
  // The data visualization block's parts (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block).
  segment: { fields: { label: str(20, 1), value: num }, required: ['label', 'value'] },
  data_series: { fields: { name: str(20, 1), data: arrayOf(object('data_point'), 20) }, required: ['name', 'data'] },
  data_point: { fields: { label: str(20, 1), value: num }, required: ['label', 'value'] },
  axis_config: { fields: { categories: arrayOf(str(20, 1)), x_label: str(50), y_label: str(50) }, required: ['categories'] },
} satisfies Record<CompositionName, ObjectSpec>;

/** Text objects, the leaves of most blocks. */
export const TEXT_OBJECTS: Record<string, ObjectSpec> = {
  plain_text: { fields: { text: str(), emoji: bool }, required: ['text'] },
  mrkdwn: { fields: { text: str(), verbatim: bool }, required: ['text'] },
};

/** Block elements (interactive and not). */
export const ELEMENTS: Record<string, ObjectSpec> = {
  button: {
    fields: { ...actionable, ...confirmable, text: plain(75), value: str(2000), url: str(3000), style, accessibility_label: str(75) },
    required: ['text'],
  },
  image: {
    fields: { image_url: str(3000), slack_file: { kind: 'json' }, alt_text: str(2000) },
    required: ['alt_text'],
  },
  static_select: {
    fields: {
      ...actionable,
      ...confirmable,
      ...focusable,
      ...placeholdable,
      options: arrayOf(object('option'), 100),
      option_groups: arrayOf(object('option_group'), 100),
      initial_option: object('option'),
    },
  },
  multi_static_select: {
    fields: {
      ...actionable,
      ...confirmable,
      ...focusable,
      ...placeholdable,
      options: arrayOf(object('option'), 100),
      option_groups: arrayOf(object('option_group'), 100),
      initial_options: arrayOf(object('option'), 100, 0),
      max_selected_items: num,
    },
  },
  users_select: { fields: { ...actionable, ...confirmable, ...focusable, ...placeholdable, initial_user: str() } },
  conversations_select: {
    fields: {
      ...actionable,
      ...confirmable,
      ...focusable,
      ...placeholdable,
      initial_conversation: str(),
      default_to_current_conversation: bool,
      response_url_enabled: bool,
      filter: object('conversation_filter'),
    },
  },
  channels_select: {
    fields: { ...actionable, ...confirmable, ...focusable, ...placeholdable, initial_channel: str(), response_url_enabled: bool },
  },
  external_select: {
    fields: { ...actionable, ...confirmable, ...focusable, ...placeholdable, initial_option: object('option'), min_query_length: num },
  },
  overflow: { fields: { ...actionable, ...confirmable, options: arrayOf(object('option'), 5) }, required: ['options'] },
  datepicker: { fields: { ...actionable, ...confirmable, ...focusable, ...placeholdable, initial_date: str() } },
  timepicker: { fields: { ...actionable, ...confirmable, ...focusable, ...placeholdable, initial_time: str(), timezone: str() } },
  checkboxes: {
    fields: {
      ...actionable,
      ...confirmable,
      ...focusable,
      options: arrayOf(object('option'), 10),
      initial_options: arrayOf(object('option'), 10, 0),
    },
    required: ['options'],
  },
  radio_buttons: {
    fields: { ...actionable, ...confirmable, ...focusable, options: arrayOf(object('option'), 10), initial_option: object('option') },
    required: ['options'],
  },
  plain_text_input: {
    fields: {
      ...actionable,
      ...dispatchable,
      ...focusable,
      ...placeholdable,
      initial_value: str(3000),
      multiline: bool,
      min_length: num,
      max_length: num,
    },
  },
  number_input: {
    fields: {
      ...actionable,
      ...dispatchable,
      ...focusable,
      ...placeholdable,
      is_decimal_allowed: bool,
      initial_value: str(),
      min_value: str(),
      max_value: str(),
    },
    required: ['is_decimal_allowed'],
  },
  email_text_input: { fields: { ...actionable, ...dispatchable, ...focusable, ...placeholdable, initial_value: str() } },
  url_text_input: { fields: { ...actionable, ...dispatchable, ...focusable, ...placeholdable, initial_value: str() } },
};

/** Elements each block may hold where the reference restricts them. */
export const SECTION_ACCESSORIES = [
  'button',
  'checkboxes',
  'datepicker',
  'image',
  'static_select',
  'multi_static_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'external_select',
  'overflow',
  'radio_buttons',
  'timepicker',
] as const;
const ACTIONS_ELEMENTS = SECTION_ACCESSORIES.filter((type) => type !== 'image');
const INPUT_ELEMENTS = [
  'checkboxes',
  'datepicker',
  'static_select',
  'multi_static_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'external_select',
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
  'radio_buttons',
  'timepicker',
];

const blockId = { block_id: str(255, 1) };

/** Blocks. */
export const BLOCKS: Record<string, ObjectSpec> = {
  section: {
    fields: {
      ...blockId,
      text: { kind: 'text', max: 3000, min: 1 },
      fields: arrayOf({ kind: 'text', max: 2000, min: 1 }, 10),
      accessory: typed(...SECTION_ACCESSORIES),
      expand: bool,
    },
  },
  header: { fields: { ...blockId, text: { kind: 'text', max: 150, min: 1, plainOnly: true } }, required: ['text'] },
  divider: { fields: { ...blockId } },
  context: { fields: { ...blockId, elements: arrayOf(typed('image', 'plain_text', 'mrkdwn'), 10) }, required: ['elements'] },
  actions: { fields: { ...blockId, elements: arrayOf(typed(...ACTIONS_ELEMENTS), 25) }, required: ['elements'] },
  image: {
    fields: { ...blockId, image_url: str(3000), slack_file: { kind: 'json' }, alt_text: str(2000), title: plain(2000) },
    required: ['alt_text'],
  },
  input: {
    fields: { ...blockId, label: plain(2000), element: typed(...INPUT_ELEMENTS), dispatch_action: bool, hint: plain(2000), optional: bool },
    required: ['label', 'element'],
  },
  markdown: { fields: { ...blockId, text: str(12000, 1) }, required: ['text'] },
  rich_text: { fields: { ...blockId, elements: arrayOf({ kind: 'json' }, undefined, 0) }, required: ['elements'] },
  table: {
    fields: {
      ...blockId,
      rows: arrayOf(arrayOf(typed('raw_text', 'rich_text'), 20), 100),
      column_settings: arrayOf(object('column_setting'), 20, 0),
    },
    required: ['rows'],
  },
  data_visualization: {
    fields: { ...blockId, title: str(50, 1), chart: typed('pie', 'bar', 'area', 'line') },
    required: ['title', 'chart'],
  },
  video: {
    fields: {
      ...blockId,
      alt_text: str(),
      author_name: str(50),
      description: plain(200),
      provider_icon_url: str(),
      provider_name: str(),
      title: plain(200),
      title_url: str(),
      thumbnail_url: str(),
      video_url: str(),
    },
    required: ['alt_text', 'title', 'thumbnail_url', 'video_url'],
  },
};

/** The charts a data visualization block draws: a pie of segments, or series over the axis's categories. */
const seriesChart: ObjectSpec = {
  fields: { series: arrayOf(object('data_series'), 6), axis_config: object('axis_config') },
  required: ['series', 'axis_config'],
};
export const CHARTS: Record<string, ObjectSpec> = {
  pie: { fields: { segments: arrayOf(object('segment'), 6) }, required: ['segments'] },
  bar: seriesChart,
  area: seriesChart,
  line: seriesChart,
};

/** Table cells: raw text (rich text cells are rich_text blocks). */
export const TABLE_CELLS: Record<string, ObjectSpec> = {
  raw_text: { fields: { text: str(2000, 1) }, required: ['text'] },
};

/** At most this many data visualization blocks in one message. */
export const MAX_CHARTS = 2;

/** The surfaces blocks appear on, and how many blocks each takes. */
export const MAX_BLOCKS = { message: 50, modal: 100, home: 100 } as const;

/** A view's own fields (views.open, views.publish), by view type. */
export const VIEWS: Record<string, ObjectSpec> = {
  modal: {
    fields: {
      title: plain(24),
      blocks: { kind: 'json' },
      close: plain(24),
      submit: plain(24),
      private_metadata: str(3000),
      callback_id: str(255),
      clear_on_close: bool,
      notify_on_close: bool,
      external_id: str(255),
      submit_disabled: bool,
    },
    required: ['title', 'blocks'],
  },
  home: {
    fields: { blocks: { kind: 'json' }, private_metadata: str(3000), callback_id: str(255), external_id: str(255) },
    required: ['blocks'],
  },
};
