// Rows of the properties resource; see src/db/tables.ts for how rows read in both dialects.

export interface PropertyDefsTable {
  id: string;
  guide_id: string;
  key: string;
  label: string;
  kind: 'shortLabel' | 'longSection' | 'number' | 'date' | 'checkbox' | 'singleSelect';
  order_key: number;
  required: number;
  filterable: number;
  placeholder: string | null;
  num_unit: string | null;
  options: string;
  archived: number;
  schema_version: number;
  created_at: number;
  updated_at: number;
}
