import { Field, Tool, toolFailure } from '../../lib';
import { WeatherService } from './weather.service';

/**
 * A wuwe tool that is also a Nest provider: its fields are the model's arguments, its constructor
 * parameters are injected. Registered by `WuweModule.forFeature`, so each call gets a fresh instance.
 */
@Tool({ description: 'Get the current temperature of a city.' })
export class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  constructor(private readonly weather: WeatherService) {}

  invoke() {
    const degrees = this.weather.temperatureOf(this.city);
    if (degrees === undefined)
      return toolFailure({ code: 'not_found', category: 'not_found', message: `no weather for ${this.city}` });
    return `${this.city} is ${degrees} degrees.`;
  }
}
