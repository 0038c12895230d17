import { DynamicModule, Module } from '@nestjs/common';
import { RunStore } from '../../lib';
import type { ModelStepper } from '../../lib/model';
import { WuweModule } from '../../lib/nest';
import { AgentController } from './agent.controller';
import { GetWeather } from './get-weather.tool';
import { WeatherModule } from './weather.service';

/** The sample application: the agent controller, wuwe's module and the weather tool. */
@Module({})
export class AppModule {
  static withModel(model: ModelStepper, store?: RunStore): DynamicModule {
    return {
      module: AppModule,
      imports: [
        WuweModule.forRoot({
          model,
          store,
          runOptions: { system: 'Answer weather questions with the GetWeather tool.' },
        }),
        WuweModule.forFeature([GetWeather], { imports: [WeatherModule] }),
      ],
      controllers: [AgentController],
    };
  }
}
