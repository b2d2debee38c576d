import { writeFileSync } from "node:fs";
import {
  templateJsonSchemaFile,
  templateJsonSchemaText,
} from "../src/agents/template-json-schema.ts";

writeFileSync(templateJsonSchemaFile, templateJsonSchemaText());
console.log(`wrote ${templateJsonSchemaFile}`);
